//! Line of sight: Ch16 4.1, 4.4, 4.5, 5.7, RULE-05-1.2, RULE-05-5.2/5.3/5.5, RULE-05-6.1/6.2/6.3,
//! RULINGS G4 and G11.
//!
//! Sight is judged on two kinds of line:
//!
//! - the **range line**, from the firer's colours to the nearest point of the target (RULINGS
//!   G4), for what concerns the whole volley: the weather's sight limit, dead ground behind a
//!   crest, smoke walls and the smoke penalty;
//! - one **stand line** per firing stand (the front rank), from the centre of its front edge to
//!   the nearest point of the target, for what concerns single stands (RULE-05-6.1: "reduce its
//!   dice pool to include only those individual stands possessing a clear line"; RULINGS G4:
//!   "stands without line of sight drop out"): terrain, buildings and friendly units.
//!
//! The rules, and where touching counts:
//!
//! - **Weather**: sight ends at the weather's limit; a target exactly at the limit is seen.
//! - **Dead ground**: see [`super::elevation`] (1.0" behind a crest is visible, 1.1" is not).
//! - **Terrain** (Ch16 4.1): a stand line may run at most the kind's `los` inches inside an area
//!   (cornfield 4, orchard and light woods 6, dense woods 3, town 0); exactly the limit is seen,
//!   and a line grazing the edge runs 0" inside. Each area is measured on its own.
//! - **Buildings** (Ch16 4.3): a stand line that enters a building's walls is blocked, unless it
//!   is the building the firer or the target garrisons. Grazing a wall does not block.
//! - **Friends** (RULE-05-6.1, 6.2): a stand line that enters the footprint of a formed friendly
//!   unit is blocked (a line down the joint between two of its stands enters it too);
//!   skirmishers and skirmish screens (`formed: false`) never block. A line running along a
//!   friend's outer edge or through its corner point does not enter it. A battery firing
//!   overhead ([`SightQuery::overhead`]) is not blocked by a friend it may fire over
//!   ([`Battlefield::overhead_clear`]).
//! - **Smoke walls** (RULE-05-5.5): a range line that meets a wall (touching counts) is blocked
//!   beyond the wall's range (8" in the stdlib); at exactly 8" the target is seen.
//! - **Smoke markers** (RULE-05-5.2, 5.3, RULINGS G11): a range line that meets a marker or a
//!   wall (touching counts, so a firer's own marker, flush against its front, always counts) at a
//!   range beyond the marker's `beyond` (6" in the stdlib) costs the penalty once (it never
//!   stacks); at exactly 6.0" there is none.
//!
//! Enemy units in between do not block: target priority (RULE-05-1.3) is the caller's.

use geo::coordinate_position::{CoordPos, CoordinatePosition};
use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{ConvexHull, Coord, Euclidean, Intersects, Length, Line, MultiPolygon, Polygon};

use dotc_lang::library::SightLimit;

use super::Battlefield;
use super::body::Body;
use super::elevation::{DeadGround, OverheadFire};
use super::range::{nearest_point, range, range_line};
use crate::geometry::measured;

/// A unit of the firer's side that may stand in the way.
#[derive(Clone, Copy, Debug)]
pub struct Friend<'a> {
    pub body: &'a Body,
    /// A formed unit blocks fire (RULE-05-6.1); skirmishers and screens do not (RULE-05-6.2).
    pub formed: bool,
}

/// Gunsmoke on the table.
#[derive(Clone, Debug, PartialEq)]
pub enum Smoke {
    /// One unit's marker (RULE-05-5.1).
    Marker(Polygon<f64>),
    /// The merged markers of 3 or more adjacent regiments of one brigade (RULE-05-5.5, RULINGS
    /// C32).
    Wall(Polygon<f64>),
}

impl Smoke {
    /// The marker a unit places when it fires: a square of `size` (the gunsmoke marker's, in
    /// [`super::SmokeRule::size`]) against the centre of its front edge (RULE-05-5.1).
    pub fn marker_of(body: &Body, size: f64) -> Smoke {
        let half = size / 2.0;
        Smoke::Marker(body.frame().rectangle(-half, half, 0.0, size))
    }

    /// The wall the markers of these units merge into: the hull around them (RULE-05-5.5).
    /// Whether they qualify (3+ adjacent regiments of one brigade that fired) is the caller's.
    pub fn wall_of(bodies: &[&Body], size: f64) -> Smoke {
        let markers: Vec<Polygon<f64>> =
            bodies.iter().map(|b| Smoke::marker_of(b, size).area().clone()).collect();
        Smoke::Wall(MultiPolygon::new(markers).convex_hull())
    }

    pub fn area(&self) -> &Polygon<f64> {
        match self {
            Smoke::Marker(area) | Smoke::Wall(area) => area,
        }
    }
}

/// A regiment that carries a smoke marker, as [`smoke_walls`] sees it.
#[derive(Clone, Copy, Debug)]
pub struct Smoker<'a> {
    pub body: &'a Body,
    /// Its brigade (any key the caller likes): only regiments of one brigade merge their smoke
    /// (RULE-05-5.5, RULINGS C32). None: no brigade, it never joins a wall.
    pub brigade: Option<usize>,
}

/// The Smoke Walls these smoking regiments make (RULE-05-5.5, Ch16 5.7, RULINGS C32): each a
/// group of at least the rule's `smoke_wall` count of regiments of one brigade, each of them
/// adjacent to another of the group (its stands at most the rule's `within` gap from that one's,
/// the lateral interval of Ch16 3.3; a chain counts, dotc D5). Indices into `smokers`, each group
/// in ascending order, the groups in the order of their first member. Whether each regiment
/// qualifies (a regiment, not a battery; it fired from where it stands, so it carries a marker)
/// is the caller's; its wall is [`Smoke::wall_of`] their bodies.
pub fn smoke_walls(smokers: &[Smoker<'_>], rule: &super::SmokeRule) -> Vec<Vec<usize>> {
    use geo::Distance;
    let Some(least) = rule.wall_regiments.filter(|&n| n > 0) else { return Vec::new() };
    // A wall is of one brigade: without a brigade of `least` smokers there is none, and no
    // footprint need be built (issue 16: the smoke a volley meets is asked at every volley).
    let mut per_brigade: Vec<(usize, usize)> = Vec::new();
    for brigade in smokers.iter().filter_map(|s| s.brigade) {
        match per_brigade.iter_mut().find(|(b, _)| *b == brigade) {
            Some((_, count)) => *count += 1,
            None => per_brigade.push((brigade, 1)),
        }
    }
    if per_brigade.iter().all(|&(_, count)| count < least as usize) {
        return Vec::new();
    }
    let footprints: Vec<Polygon<f64>> = smokers.iter().map(|s| s.body.footprint()).collect();
    let adjacent = |a: usize, b: usize| {
        smokers[a].brigade.is_some()
            && smokers[a].brigade == smokers[b].brigade
            && measured(Euclidean.distance(&footprints[a], &footprints[b])) <= measured(rule.wall_within)
    };
    // Connected groups by adjacency, found by growing each from its first member.
    let mut group_of: Vec<Option<usize>> = vec![None; smokers.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..smokers.len() {
        if group_of[start].is_some() || smokers[start].brigade.is_none() {
            continue;
        }
        let g = groups.len();
        group_of[start] = Some(g);
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let at = members[next];
            next += 1;
            for (other, slot) in group_of.iter_mut().enumerate() {
                if slot.is_none() && adjacent(at, other) {
                    *slot = Some(g);
                    members.push(other);
                }
            }
        }
        members.sort_unstable();
        groups.push(members);
    }
    groups.retain(|members| members.len() >= least as usize);
    groups
}

/// What a line of sight is asked about.
#[derive(Clone, Copy, Debug)]
pub struct SightQuery<'a> {
    pub firer: &'a Body,
    pub target: &'a Body,
    /// The firer's side's other units that may be in the way (not the firer itself).
    pub friends: &'a [Friend<'a>],
    /// All smoke on the table, the firer's own marker included.
    pub smoke: &'a [Smoke],
    /// How far the weather lets anyone see, if it limits sight.
    pub weather_limit: Option<f64>,
    /// The building the firer garrisons: its own walls do not block it.
    pub firer_garrison: Option<&'a str>,
    /// The building the target garrisons: the firer sees into it.
    pub target_garrison: Option<&'a str>,
    /// The firer is a battery firing in this band: it may fire over friends on lower ground
    /// (RULE-05-6.3).
    pub overhead: Option<OverheadFire>,
}

impl<'a> SightQuery<'a> {
    /// Sight from `firer` to `target` with nothing else on the table.
    pub fn new(firer: &'a Body, target: &'a Body) -> SightQuery<'a> {
        SightQuery {
            firer,
            target,
            friends: &[],
            smoke: &[],
            weather_limit: None,
            firer_garrison: None,
            target_garrison: None,
            overhead: None,
        }
    }
}

/// Why a line of sight is blocked.
#[derive(Clone, Debug, PartialEq)]
pub enum SightBlock {
    /// Beyond the weather's limit.
    Weather { limit: f64 },
    /// Hidden behind a crest (Ch16 4.4).
    DeadGround(DeadGround),
    /// Through a smoke wall beyond its range (RULE-05-5.5).
    SmokeWall { beyond: f64 },
    /// Too far inside an area ([`Battlefield::areas`] index) for its sight limit (Ch16 4.1).
    Terrain { area: usize, inside: f64, limit: f64 },
    /// Through a building ([`Battlefield::buildings`] index).
    Building { building: usize },
    /// Through a formed friendly unit ([`SightQuery::friends`] index, RULE-05-6.1).
    Friend { friend: usize },
}

/// The answer: who sees, and at what cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Sight {
    /// The range (RULINGS G4).
    pub range: f64,
    /// At least one firing stand has a clear line and nothing blocks the whole unit.
    pub visible: bool,
    /// Why not, when not visible: the whole-unit reason, or the first blocked stand's.
    pub blocked: Option<SightBlock>,
    /// Firing stands (indices into [`Body::stands`], front rank) with a clear line: the firer's
    /// pool (RULE-05-6.1).
    pub clear_stands: Vec<usize>,
    /// Firing stands without one, and why.
    pub blocked_stands: Vec<(usize, SightBlock)>,
    /// The line passes into, out of or through smoke beyond 6": -1 to hit, once (RULE-05-5.2,
    /// 5.3, RULINGS G11).
    pub smoke_penalty: bool,
    /// Friends ([`SightQuery::friends`] indices) a battery fires over (RULE-05-6.3).
    pub fired_over: Vec<usize>,
}

impl Battlefield {
    /// The line of sight from a firer to a target.
    pub fn sight(&self, query: &SightQuery<'_>) -> Sight {
        self.look(query, false)
    }

    /// Whether the firer sees the target at all: [`Battlefield::sight`]'s `visible`, found
    /// without looking past the first stand with a clear line (issue 16: a unit at rest is
    /// asked whether each enemy sees it, every turn).
    pub fn can_see(&self, query: &SightQuery<'_>) -> bool {
        self.look(query, true).visible
    }

    /// The line of sight; with `first_clear`, it stops at the first stand that sees the target,
    /// so only `visible` is whole.
    fn look(&self, query: &SightQuery<'_>, first_clear: bool) -> Sight {
        let range = range(query.firer, query.target);
        let line = range_line(query.firer, query.target);
        let smoke_penalty = self.smoke.penalty_beyond.is_some_and(|beyond| range > beyond)
            && query.smoke.iter().any(|s| s.area().intersects(&line));
        let mut sight = Sight {
            range,
            visible: false,
            blocked: None,
            clear_stands: Vec::new(),
            blocked_stands: Vec::new(),
            smoke_penalty,
            fired_over: Vec::new(),
        };
        if let Some(limit) = query.weather_limit.filter(|&limit| range > limit) {
            sight.blocked = Some(SightBlock::Weather { limit });
            return sight;
        }
        if let Some(hidden) = self.dead_ground_between(query.firer, query.target) {
            sight.blocked = Some(SightBlock::DeadGround(hidden));
            return sight;
        }
        if let Some(beyond) = self.smoke.wall_beyond.filter(|&beyond| range > beyond)
            && query.smoke.iter().any(|s| matches!(s, Smoke::Wall(area) if area.intersects(&line)))
        {
            sight.blocked = Some(SightBlock::SmokeWall { beyond });
            return sight;
        }
        for stand in query.firer.front_rank() {
            let from = query.firer.stand_front_centre(stand);
            let stand_line = Line::new(from.0, nearest_point(from, query.target).0);
            match self.stand_line_block(query, &stand_line, &mut sight.fired_over) {
                None => sight.clear_stands.push(stand),
                Some(block) => sight.blocked_stands.push((stand, block)),
            }
            if first_clear && !sight.clear_stands.is_empty() {
                break;
            }
        }
        sight.visible = !sight.clear_stands.is_empty();
        if !sight.visible {
            sight.blocked = sight.blocked_stands.first().map(|(_, block)| block.clone());
        }
        sight.fired_over.sort_unstable();
        sight.fired_over.dedup();
        sight
    }

    /// What blocks one stand's line, if anything.
    fn stand_line_block(
        &self,
        query: &SightQuery<'_>,
        line: &Line<f64>,
        fired_over: &mut Vec<usize>,
    ) -> Option<SightBlock> {
        for (index, area) in self.areas.iter().enumerate() {
            let SightLimit::Inches(limit) = area.terrain.los else { continue };
            let inside = inside_length(&area.outline, line);
            if inside > limit {
                return Some(SightBlock::Terrain { area: index, inside, limit });
            }
        }
        for (index, building) in self.buildings.iter().enumerate() {
            let own = |garrison: Option<&str>| garrison.is_some() && garrison == building.name.as_deref();
            // Ch16 4.3: a collapsed building is rubble, which blocks no sight.
            if building.collapsed || own(query.firer_garrison) || own(query.target_garrison) {
                continue;
            }
            if building.footprint.as_ref().is_some_and(|walls| inside_length(walls, line) > 0.0) {
                return Some(SightBlock::Building { building: index });
            }
        }
        for (index, friend) in query.friends.iter().enumerate() {
            if !friend.formed
                || !friend.body.may_cross(line)
                || inside_length(&friend.body.footprint(), line) == 0.0
            {
                continue;
            }
            let over = query.overhead.is_some_and(|fire| {
                self.overhead_clear(query.firer, query.target, friend.body, fire).is_ok()
            });
            if !over {
                return Some(SightBlock::Friend { friend: index });
            }
            fired_over.push(index);
        }
        None
    }
}

/// Whether `firer`'s fire at `target` passes through `shape`: its range line (RULINGS G4) or the
/// line of one of its firing stands (the front rank) runs inside it; grazing its edge does not
/// count. For a regiment's own skirmish screen (RULE-05-6.2, dotc D2 `in_the_line`).
pub fn fire_crosses(firer: &Body, target: &Body, shape: &Polygon<f64>) -> bool {
    let stand_lines = firer.front_rank().map(|stand| {
        let from = firer.stand_front_centre(stand);
        Line::new(from.0, nearest_point(from, target).0)
    });
    std::iter::once(range_line(firer, target))
        .chain(stand_lines)
        .any(|line| inside_length(shape, &line) > 0.0)
}

/// How far a line runs inside a shape, inches: 0 when it only touches the edge or runs along it.
///
/// Counted from the points where the line crosses the shape's edges (geo's `line_intersection`)
/// and whether each piece between them lies inside (`coordinate_position`), rather than with
/// `BooleanOps::clip`, which works on a fixed grid and is off by ~1e-8": enough to put a line
/// exactly 3.0" into dense woods over its limit.
pub fn inside_length(shape: &Polygon<f64>, line: &Line<f64>) -> f64 {
    let length = Euclidean.length(line);
    // A segment whose box misses the shape's is not inside it at all (issue 16: most of the
    // segments a replay measures are far from the shape).
    if length.is_nan()
        || length <= 0.0
        || crate::geometry::box_apart_from_line(shape, line)
        || !shape.intersects(line)
    {
        return 0.0;
    }
    let (dx, dy) = (line.dx(), line.dy());
    let along = |c: Coord<f64>| ((c.x - line.start.x) * dx + (c.y - line.start.y) * dy) / (length * length);
    let mut cuts = vec![0.0, 1.0];
    let edges = shape.exterior().lines().chain(shape.interiors().iter().flat_map(|ring| ring.lines()));
    for edge in edges {
        match line_intersection(*line, edge) {
            Some(LineIntersection::SinglePoint { intersection, .. }) => cuts.push(along(intersection)),
            Some(LineIntersection::Collinear { intersection }) => {
                cuts.extend([along(intersection.start), along(intersection.end)]);
            }
            None => {}
        }
    }
    let mut cuts: Vec<f64> = cuts.into_iter().map(|t| t.clamp(0.0, 1.0)).collect();
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let inside: f64 = cuts
        .windows(2)
        .filter(|pair| {
            let middle = (pair[0] + pair[1]) / 2.0;
            let point = Coord { x: line.start.x + dx * middle, y: line.start.y + dy * middle };
            shape.coordinate_position(&point) == CoordPos::Inside
        })
        .map(|pair| (pair[1] - pair[0]) * length)
        .sum();
    measured(inside)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battlefield::tests::{field, line};
    use crate::rulings::{DeadGroundSight, OverheadClearance};
    use dotc_lang::library::BandName;

    #[test]
    fn open_ground_every_stand_sees() {
        let f = field("");
        let firer = line((0.0, 0.0), 0.0, 5);
        let target = line((0.0, 10.0), 180.0, 5);
        let sight = f.sight(&SightQuery::new(&firer, &target));
        assert!(sight.visible);
        assert_eq!(sight.range, 10.0);
        assert_eq!(sight.clear_stands, vec![0, 1, 2, 3, 4]);
        assert!(!sight.smoke_penalty && sight.blocked.is_none());
    }

    #[test]
    fn dense_woods_stop_sight_three_inches_in() {
        // Dense woods (los 3) from y = 10 to 20 across the table. Firer facing north at (0, 0);
        // target facing south with its front edge 3.0" inside (y = 13): every stand line runs
        // from y = 0 to y = 13, 3.0" of it inside: seen. At y = 13.1: 3.1" inside: blocked.
        let f = field("dense_woods \"Thicket\" polygon (-20, 10) (20, 10) (20, 20) (-20, 20)");
        let firer = line((0.0, 0.0), 0.0, 5);
        let seen = f.sight(&SightQuery::new(&firer, &line((0.0, 13.0), 180.0, 5)));
        assert!(seen.visible, "{seen:?}");
        let hidden = f.sight(&SightQuery::new(&firer, &line((0.0, 13.1), 180.0, 5)));
        assert!(!hidden.visible);
        assert_eq!(hidden.blocked, Some(SightBlock::Terrain { area: 0, inside: 3.1, limit: 3.0 }));
        assert!(hidden.clear_stands.is_empty());
        // A target just inside, its front on the woods' edge (y = 10, stands y = 10..10.75): the
        // lines stop at the edge, 0" inside: seen.
        let on_edge = f.sight(&SightQuery::new(&firer, &line((0.0, 10.0), 180.0, 5)));
        assert!(on_edge.visible);
        // A line running along the edge is not inside either: a one-stand firer at (20, 0)
        // facing north at a target 15" north; the line runs up the woods' east edge x = 20.
        let along = f.sight(&SightQuery::new(&line((20.0, 0.0), 0.0, 1), &line((20.0, 15.0), 180.0, 1)));
        assert!(along.visible, "{along:?}");
    }

    #[test]
    fn cornfields_and_light_woods_have_their_own_limits() {
        // Cornfield (los 4) and light woods (los 6) side by side, each from y = 10 to 20.
        let f = field(
            "cornfield polygon (-20, 10) (0, 10) (0, 20) (-20, 20)\n\
             light_woods polygon (10, 10) (30, 10) (30, 20) (10, 20)",
        );
        // 1-stand firers, 1-stand targets: the line is straight north.
        let corn = |depth: f64| {
            f.sight(&SightQuery::new(&line((-10.0, 0.0), 0.0, 1), &line((-10.0, 10.0 + depth), 180.0, 1)))
        };
        let woods = |depth: f64| {
            f.sight(&SightQuery::new(&line((20.0, 0.0), 0.0, 1), &line((20.0, 10.0 + depth), 180.0, 1)))
        };
        assert!(corn(4.0).visible && !corn(4.1).visible);
        assert!(woods(6.0).visible && !woods(6.1).visible);
    }

    #[test]
    fn formed_friends_in_the_way_shrink_the_pool() {
        // RULE-05-6.1. Firer: 5 stands facing north at (0, 0); stand lines run straight north
        // from x = -2, -1, 0, 1, 2 to the target's front at y = 10. A formed 2-stand friend at
        // (0, 5) facing north covers x = -1..1, y = 4.25..5. The lines at x = -1 and x = 1 run
        // along its edges (not into it); only the line at x = 0 enters it.
        let f = field("");
        let firer = line((0.0, 0.0), 0.0, 5);
        let target = line((0.0, 10.0), 180.0, 5);
        let friend = line((0.0, 5.0), 0.0, 2);
        let friends = [Friend { body: &friend, formed: true }];
        let sight = f.sight(&SightQuery { friends: &friends, ..SightQuery::new(&firer, &target) });
        assert!(sight.visible);
        assert_eq!(sight.clear_stands, vec![0, 1, 3, 4]);
        assert_eq!(sight.blocked_stands, vec![(2, SightBlock::Friend { friend: 0 })]);
        // Skirmishers in the same place do not block (RULE-05-6.2).
        let screen = [Friend { body: &friend, formed: false }];
        let sight = f.sight(&SightQuery { friends: &screen, ..SightQuery::new(&firer, &target) });
        assert_eq!(sight.clear_stands.len(), 5);
        // A friend as wide as the firer blocks every stand.
        let wide = line((0.0, 5.0), 0.0, 6);
        let wall = [Friend { body: &wide, formed: true }];
        let sight = f.sight(&SightQuery { friends: &wall, ..SightQuery::new(&firer, &target) });
        assert!(!sight.visible);
        assert_eq!(sight.blocked, Some(SightBlock::Friend { friend: 0 }));
    }

    #[test]
    fn smoke_costs_one_beyond_six_inches_only() {
        // RULE-05-5.2, 5.3, G11. The firer's own marker sits against its front centre, so its
        // range line always leaves through it.
        let f = field("");
        let firer = line((0.0, 0.0), 0.0, 5);
        let own = [Smoke::marker_of(&firer, f.smoke.size)];
        let at = |y: f64| line((0.0, y), 180.0, 5);
        let far = f.sight(&SightQuery { smoke: &own, ..SightQuery::new(&firer, &at(10.0)) });
        assert!(far.visible && far.smoke_penalty);
        let six = f.sight(&SightQuery { smoke: &own, ..SightQuery::new(&firer, &at(6.0)) });
        assert!(six.visible && !six.smoke_penalty);
        // Another unit's marker off to the side of the range line does not count.
        let neighbour = line((6.0, 0.0), 0.0, 5);
        let aside = [Smoke::marker_of(&neighbour, f.smoke.size)];
        assert!(!f.sight(&SightQuery { smoke: &aside, ..SightQuery::new(&firer, &at(10.0)) }).smoke_penalty);
        // The target's own smoke, against its front, is smoke the line goes into.
        let target = at(10.0);
        let theirs = [Smoke::marker_of(&target, f.smoke.size)];
        assert!(f.sight(&SightQuery { smoke: &theirs, ..SightQuery::new(&firer, &target) }).smoke_penalty);
    }

    #[test]
    fn a_smoke_wall_blocks_beyond_eight_inches() {
        // RULE-05-5.5: three regiments side by side at y = 3 facing north fired; their markers
        // (x = -6..-5, -0.5..0.5, 5..6; y = 3..4) merge into a wall x = -6..6. Our firer behind
        // them at y = 0 fires north through it.
        let f = field("");
        let (a, b, c) = (line((-5.5, 3.0), 0.0, 5), line((0.0, 3.0), 0.0, 5), line((5.5, 3.0), 0.0, 5));
        let wall = [Smoke::wall_of(&[&a, &b, &c], f.smoke.size)];
        let firer = line((0.0, 0.0), 0.0, 5);
        let eight =
            f.sight(&SightQuery { smoke: &wall, ..SightQuery::new(&firer, &line((0.0, 8.0), 180.0, 5)) });
        assert!(eight.visible && eight.smoke_penalty);
        let beyond =
            f.sight(&SightQuery { smoke: &wall, ..SightQuery::new(&firer, &line((0.0, 8.5), 180.0, 5)) });
        assert_eq!(beyond.blocked, Some(SightBlock::SmokeWall { beyond: 8.0 }));
    }

    #[test]
    fn rule_05_5_5_three_adjacent_regiments_of_one_brigade_make_a_wall() {
        // RULE-05-5.5, RULINGS C32, Ch16 3.3: 5-stand regiments with fronts x = -8.5..-3.5,
        // -2.5..2.5 and 3.5..8.5 (1" gaps, the widest interval) of one brigade make one wall; a
        // fourth at 10..15 (1.5" from the third) is no neighbour; two brigades make none.
        let f = field("");
        let bodies: Vec<Body> = [-6.0, 0.0, 6.0, 12.5].iter().map(|&x| line((x, 3.0), 0.0, 5)).collect();
        let of = |brigades: [Option<usize>; 4]| -> Vec<Vec<usize>> {
            let smokers: Vec<Smoker<'_>> =
                bodies.iter().zip(brigades).map(|(body, brigade)| Smoker { body, brigade }).collect();
            smoke_walls(&smokers, &f.smoke)
        };
        assert_eq!(of([Some(0); 4]), vec![vec![0, 1, 2]]);
        assert_eq!(of([Some(0), Some(0), Some(1), Some(1)]), Vec::<Vec<usize>>::new());
        assert_eq!(of([Some(0), Some(0), None, Some(0)]), Vec::<Vec<usize>>::new());
        // Only two of them: no wall.
        assert_eq!(of([Some(0), Some(1), Some(1), Some(0)]), Vec::<Vec<usize>>::new());
    }

    #[test]
    fn the_weather_limits_sight() {
        let f = field("");
        let firer = line((0.0, 0.0), 0.0, 5);
        let query = |y: f64| {
            let target = line((0.0, y), 180.0, 5);
            f.sight(&SightQuery { weather_limit: Some(12.0), ..SightQuery::new(&firer, &target) })
        };
        assert!(query(12.0).visible);
        assert_eq!(query(12.5).blocked, Some(SightBlock::Weather { limit: 12.0 }));
    }

    #[test]
    fn buildings_block_but_not_their_own_garrison() {
        // A 2" x 2" house centred at (0, 5): walls x = -1..1, y = 4..6. One-stand firer at (0, 0)
        // facing north, target at (0, 10) facing south: the line x = 0 crosses the house.
        let f = field("masonry_building \"House\" at (0, 5) size 2 x 2");
        let firer = line((0.0, 0.0), 0.0, 1);
        let target = line((0.0, 10.0), 180.0, 1);
        assert_eq!(
            f.sight(&SightQuery::new(&firer, &target)).blocked,
            Some(SightBlock::Building { building: 0 })
        );
        // The garrison inside is seen (the line ends in the house), and sees out.
        let inside = line((0.0, 5.0), 180.0, 1);
        assert!(
            f.sight(&SightQuery { target_garrison: Some("House"), ..SightQuery::new(&firer, &inside) })
                .visible
        );
        assert!(
            f.sight(&SightQuery { firer_garrison: Some("House"), ..SightQuery::new(&inside, &firer) })
                .visible
        );
        // A line along the wall x = 1 is not blocked.
        let beside = line((1.0, 0.0), 0.0, 1);
        let far = line((1.0, 10.0), 180.0, 1);
        assert!(f.sight(&SightQuery::new(&beside, &far)).visible);
    }

    #[test]
    fn dead_ground_hides_the_reverse_slope() {
        let f = field("hill level 1 polygon (0, 0) (20, 0) (20, 40) (0, 40) crest (15, 0) (15, 40)");
        let viewer = line((30.0, 20.0), 270.0, 5);
        let hidden = f.sight(&SightQuery::new(&viewer, &line((13.9, 20.0), 90.0, 5)));
        assert!(matches!(hidden.blocked, Some(SightBlock::DeadGround(_))));
        assert!(f.sight(&SightQuery::new(&viewer, &line((14.0, 20.0), 90.0, 5))).visible);
    }

    #[test]
    fn dotc_d53_dead_ground_blocks_sight_both_ways_by_default() {
        // Ch16 4.4, dotc D53. The same hill: a line 1.1" behind the crest (x = 13.9, facing east)
        // and one at the foot (x = 30, level 0). By default (`both_ways`) the crest that hides the
        // reverse slope from the foot hides the foot from the reverse slope: the line behind it
        // does not see the one below, and says it is the viewer that stands in dead ground. At
        // 1.0" behind it sees and is seen. Under `from_below` it sees the foot from 1.1".
        let mut f = field("hill level 1 polygon (0, 0) (20, 0) (20, 40) (0, 40) crest (15, 0) (15, 40)");
        let foot = line((30.0, 20.0), 270.0, 5);
        let behind = line((13.9, 20.0), 90.0, 5);
        assert_eq!(f.dead_ground_sight, DeadGroundSight::BothWays);
        let blind = f.sight(&SightQuery::new(&behind, &foot));
        assert!(!blind.visible);
        assert!(
            matches!(&blind.blocked, Some(SightBlock::DeadGround(d)) if d.viewer_hidden && (d.behind - 1.1).abs() < 1e-9),
            "{:?}",
            blind.blocked
        );
        assert!(!f.can_see(&SightQuery::new(&behind, &foot)));
        let at_the_depth = line((14.0, 20.0), 90.0, 5);
        assert!(f.sight(&SightQuery::new(&at_the_depth, &foot)).visible);
        // A viewer on the hill's level sees over its own crest: nothing is dead to it.
        let on_the_hill = line((18.0, 20.0), 270.0, 5);
        assert!(f.sight(&SightQuery::new(&behind, &on_the_hill)).visible);
        f.dead_ground_sight = DeadGroundSight::FromBelow;
        assert!(f.sight(&SightQuery::new(&behind, &foot)).visible);
        assert!(!f.sight(&SightQuery::new(&foot, &behind)).visible, "still hidden from below");
    }

    #[test]
    fn a_battery_on_a_hill_fires_over_friends_below() {
        // RULE-05-6.3. Battery: 2 sections at (16, 20) facing east on a level-1 hill (x <= 20).
        // Friend: a formed 5-stand line at (23.5, 20) facing east (x = 22.75..23.5, level 0):
        // 6.75" from the muzzles, 10.5" from the target at x = 34.
        let f = field("hill level 1 polygon (0, 0) (20, 0) (20, 40) (0, 40)");
        let battery = line((16.0, 20.0), 90.0, 2);
        let target = line((34.0, 20.0), 270.0, 5);
        let friend = line((23.5, 20.0), 90.0, 5);
        let friends = [Friend { body: &friend, formed: true }];
        let base = SightQuery { friends: &friends, ..SightQuery::new(&battery, &target) };
        assert!(!f.sight(&base).visible);
        let medium = OverheadFire { band: BandName::Medium, clearance: OverheadClearance::SixAndFour };
        let over = f.sight(&SightQuery { overhead: Some(medium), ..base });
        assert!(over.visible);
        assert_eq!(over.fired_over, vec![0]);
        let canister = OverheadFire { band: BandName::Canister, ..medium };
        assert!(!f.sight(&SightQuery { overhead: Some(canister), ..base }).visible);
    }

    /// Issue 16: `can_see` stops at the first stand with a clear line, and dead ground stops at
    /// the first stand within the depth; neither may change whether a unit is seen. Random
    /// units on a field with a hill and crest, woods, a building and a friend in the way.
    #[test]
    fn can_see_agrees_with_the_whole_line_of_sight() {
        let f = field(
            "hill level 1 polygon (0, 0) (20, 0) (20, 36) (0, 36) crest (15, 0) (15, 36)\n\
             dense_woods polygon (24, 4) (30, 4) (30, 12) (24, 12)\n\
             light_woods polygon (26, 20) (34, 20) (34, 30) (26, 30)\n\
             masonry_building \"Farm\" polygon (36, 14) (39, 14) (39, 17) (36, 17)",
        );
        let friend = line((22.0, 18.0), 90.0, 4);
        let friends = [Friend { body: &friend, formed: true }];
        let config = proptest::test_runner::Config { cases: 400, ..Default::default() };
        proptest::proptest!(config, |(
            (fx, fy, ff, fs) in (1.0f64..47.0, 1.0f64..35.0, 0.0f64..360.0, 1u32..7),
            (tx, ty, tf, ts) in (1.0f64..47.0, 1.0f64..35.0, 0.0f64..360.0, 1u32..7),
            with_friend in proptest::bool::ANY,
        )| {
            let firer = line((fx, fy), ff, fs);
            let target = line((tx, ty), tf, ts);
            let mut query = SightQuery::new(&firer, &target);
            if with_friend {
                query.friends = &friends;
            }
            let whole = f.sight(&query);
            proptest::prop_assert_eq!(f.can_see(&query), whole.visible, "{:?}", whole.blocked);
        });
    }
}
