//! Reach: the earliest turn a unit can get to each point of the table, for `dotc analyze`
//! (issue 19, the designer's time-and-motion report).
//!
//! The table is cut into square cells ([`CELL`] inches a side) and a unit's colours move from
//! cell centre to cell centre in 16 directions (the 8 neighbours and the knight's steps, so a
//! straight line is followed within 2.75% of its length, which each move is given back:
//! [`GRID_SLACK`]). One move is judged as
//! [`check_move`](super::check_move) judges an ordinary advance, from the same rule data and functions:
//!
//! - **The row** of each formation the unit may take (Ch16 3.1, 3.2): [`movement_row`] of every
//!   formation of the rule data that no optional module gates (line, assault column, road column;
//!   mounted line and column and dismounted skirmish order for cavalry; limbered guns). One move
//!   is made in one formation; the search tries each.
//! - **The most restrictive terrain crossed sets the rate for the whole move** (Ch16 4.1,
//!   RULINGS C24): a move at rate `r` may only cross cells whose terrain rate ([`terrain_rate`]) is
//!   at least `r`, and may go `r` inches; the search tries every rate the terrain gives. A cell
//!   is in an area when its centre is.
//! - **Roads** (Ch16 3.1): the row's road rate, when every cell of the move lies within
//!   [`ROAD_TOLERANCE`] of a road (areas under the road are then ignored, streams are not).
//! - **Water** drawn as a line (Ch16 4.1): crossing it away from a ford or bridge (within
//!   [`CROSSING_TOLERANCE`] of the crossing) sets the move's rate to the water's, and impassable
//!   water (a major river) cannot be crossed at all.
//! - **Obstacles** (Ch16 4.2, RULINGS C25): each crossing costs [`obstacle_cost`] inches, or cannot
//!   be made.
//! - **The allowance**: the rate less the ground condition's penalty when the weather module
//!   sets one (Ch13 21.0), raised to the row's `minimum` (Ch16 3.1, in command).
//! - **Formation changes** into and out of road column (Ch16 3.2, dotc D47) at the rule data's
//!   prices: the search follows each formation apart ([`reach_by_row`]); a move is made in one,
//!   or is a change where the unit stands and then a move in the new formation with what the
//!   change leaves (half of the faster formation's open allowance for `half`, nothing for
//!   `all`). A change between line and assault column is priced the same way (Ch16 3.2: half
//!   the move, the rest in the new formation); changing first and then moving is never later
//!   than moving first and changing where the move ends, since the change leaves half of the
//!   faster formation's allowance.
//! - **Double-Time** (Ch16 2.3), when asked for (`dotc analyze --double-time`): every move of
//!   infantry in line or column takes the `double_time` order's inches on top ([`DoubleTime`]),
//!   after a change too, except off the road in deep mud (Ch13 21.0). It costs a pip for the
//!   regiment that leads, and two in a row disorder only under the July Sun module (RULINGS
//!   C26).
//!
//! What it ignores, so each turn it gives is the *earliest possible*: enemy units in the way and
//! friends (passage of lines), command (pips, activation, a unit out of command losing its
//! minimum move), the cost of limbering, Disorder from terrain, obstacles or Double-Time, the table edge's footprint (only the colours' point is followed), hills (the rules
//! give slopes no movement cost) and buildings.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use dotc_lang::library::{Charge, Cost, Formation, GroundCondition, MoveColumn, MovementRate, RuleData};
use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{Contains, Coord, Distance, Euclidean, Line, Point};

use super::Battlefield;
use super::movement::{
    CROSSING_TOLERANCE, DOUBLE_TIME, DOUBLE_TIME_ARM, MoveKind, Mover, ROAD_COLUMN, ROAD_TOLERANCE,
    flagged_impassable, is_road, movement_row, obstacle_cost, terrain_rate,
};
use crate::engine::weather::Ground;
use crate::geometry::MEASURE_PRECISION;
use crate::rulings::{RoadColumnChange, Rulings};

/// The side of a cell, inches.
pub const CELL: f64 = 0.5;
/// A path in the grid's 16 directions is at most this much longer than the straight line it
/// follows (half the widest angle between two directions, 26.57 degrees: 1 / cos 13.28). Each
/// move is given it back, so the grid never judges a move longer than the rules would: on the
/// axes and the diagonals a move may then gain up to 2.75% (0.2" of an 8" move), which the
/// cells' snapping mostly takes away again. Earliest possible, never later than possible.
pub const GRID_SLACK: f64 = 1.0275;
/// A cell never reached.
pub const NEVER: u16 = u16::MAX;

/// The 16 steps from a cell: the 8 neighbours and the knight's steps.
const STEPS: [(i32, i32); 16] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
    (2, 1),
    (2, -1),
    (-2, 1),
    (-2, -1),
    (1, 2),
    (1, -2),
    (-1, 2),
    (-1, -2),
];

/// What a step crosses: water lines away from their fords and bridges, and obstacles.
#[derive(Clone, Debug, Default)]
struct Crossing {
    lines: Vec<usize>,
    obstacles: Vec<usize>,
}

/// The table in cells, with what each cell and each step meets.
#[derive(Clone, Debug)]
pub struct Grid {
    pub width: usize,
    pub height: usize,
    pub cell: f64,
    /// Per cell: the indices of the battlefield's areas its centre lies in.
    areas: Vec<Vec<usize>>,
    /// Per cell: its centre is within [`ROAD_TOLERANCE`] of a road.
    road: Vec<bool>,
    /// Per cell and step (`cell * 16 + step`): an index into `crossings`, or `u32::MAX`.
    steps: Vec<u32>,
    crossings: Vec<Crossing>,
}

impl Grid {
    /// The grid of a battlefield, None when it has no table (or one too large to cut up).
    pub fn new(bf: &Battlefield, cell: f64) -> Option<Grid> {
        let (w, d) = bf.table?;
        let positive = |v: f64| v.is_finite() && v > 0.0;
        if !positive(cell) || !positive(w) || !positive(d) || w / cell > 2000.0 || d / cell > 2000.0 {
            return None;
        }
        let width = (w / cell).ceil().max(1.0) as usize;
        let height = (d / cell).ceil().max(1.0) as usize;
        let mut grid = Grid {
            width,
            height,
            cell,
            areas: vec![Vec::new(); width * height],
            road: vec![false; width * height],
            steps: vec![u32::MAX; width * height * STEPS.len()],
            crossings: Vec::new(),
        };
        let roads: Vec<&geo::LineString<f64>> =
            bf.lines.iter().filter(|l| is_road(&l.terrain)).map(|l| &l.line).collect();
        for c in 0..width * height {
            let (x, y) = grid.centre(c);
            let p = Point::new(x, y);
            for (i, area) in bf.areas.iter().enumerate() {
                if area.outline.contains(&p) {
                    grid.areas[c].push(i);
                }
            }
            grid.road[c] =
                roads.iter().any(|r| Euclidean.distance(&p, *r) <= ROAD_TOLERANCE + MEASURE_PRECISION);
        }
        // The steps that cross a water line or an obstacle: only cells near each segment.
        let water: Vec<(usize, &super::TerrainLine)> =
            bf.lines.iter().enumerate().filter(|(_, l)| !is_road(&l.terrain)).collect();
        for (index, line) in water {
            for seg in line.line.lines() {
                grid.mark(seg, |cross, at| {
                    let near = |points: &[(f64, f64)]| {
                        points.iter().any(|&(x, y)| (x - at.x).hypot(y - at.y) <= CROSSING_TOLERANCE)
                    };
                    if !near(&line.bridges) && !near(&line.fords) && !cross.lines.contains(&index) {
                        cross.lines.push(index);
                    }
                });
            }
        }
        for (index, obstacle) in bf.obstacles.iter().enumerate() {
            for seg in obstacle.line.lines() {
                grid.mark(seg, |cross, _| {
                    if !cross.obstacles.contains(&index) {
                        cross.obstacles.push(index);
                    }
                });
            }
        }
        Some(grid)
    }

    /// Calls `f` on the crossing of every step that crosses `seg`, with the crossing point.
    fn mark(&mut self, seg: Line<f64>, mut f: impl FnMut(&mut Crossing, Coord<f64>)) {
        let pad = 2.5 * self.cell;
        let (x0, x1) = (seg.start.x.min(seg.end.x) - pad, seg.start.x.max(seg.end.x) + pad);
        let (y0, y1) = (seg.start.y.min(seg.end.y) - pad, seg.start.y.max(seg.end.y) + pad);
        let clamp_x = |v: f64| ((v / self.cell).floor().max(0.0) as usize).min(self.width - 1);
        let clamp_y = |v: f64| ((v / self.cell).floor().max(0.0) as usize).min(self.height - 1);
        for j in clamp_y(y0)..=clamp_y(y1) {
            for i in clamp_x(x0)..=clamp_x(x1) {
                let c = j * self.width + i;
                for (k, _) in STEPS.iter().enumerate() {
                    let Some(n) = self.neighbour(c, k) else { continue };
                    let (ax, ay) = self.centre(c);
                    let (bx, by) = self.centre(n);
                    let step = Line::new(Coord { x: ax, y: ay }, Coord { x: bx, y: by });
                    let at = match line_intersection(step, seg) {
                        Some(LineIntersection::SinglePoint { intersection, .. }) => intersection,
                        Some(LineIntersection::Collinear { .. }) | None => continue,
                    };
                    let slot = c * STEPS.len() + k;
                    if self.steps[slot] == u32::MAX {
                        self.steps[slot] = self.crossings.len() as u32;
                        self.crossings.push(Crossing::default());
                    }
                    let index = self.steps[slot] as usize;
                    f(&mut self.crossings[index], at);
                }
            }
        }
    }

    /// The centre of cell `c`.
    pub fn centre(&self, c: usize) -> (f64, f64) {
        let (i, j) = (c % self.width, c / self.width);
        ((i as f64 + 0.5) * self.cell, (j as f64 + 0.5) * self.cell)
    }

    /// The cell a point lies in (clamped to the table).
    pub fn cell_of(&self, (x, y): (f64, f64)) -> usize {
        let i =
            if x.is_finite() { ((x / self.cell).floor().max(0.0) as usize).min(self.width - 1) } else { 0 };
        let j =
            if y.is_finite() { ((y / self.cell).floor().max(0.0) as usize).min(self.height - 1) } else { 0 };
        j * self.width + i
    }

    fn neighbour(&self, c: usize, k: usize) -> Option<usize> {
        let (i, j) = ((c % self.width) as i64, (c / self.width) as i64);
        let (di, dj) = STEPS[k];
        let (ni, nj) = (i + i64::from(di), j + i64::from(dj));
        (ni >= 0 && nj >= 0 && (ni as usize) < self.width && (nj as usize) < self.height)
            .then(|| nj as usize * self.width + ni as usize)
    }

    fn len(&self) -> usize {
        self.width * self.height
    }

    /// The earliest turn any cell whose centre lies within `radius` of `at` is reached.
    pub fn earliest_near(&self, turns: &[u16], at: (f64, f64), radius: f64) -> u16 {
        let r = radius + MEASURE_PRECISION;
        let span = (r / self.cell).ceil() as i64 + 1;
        let centre = self.cell_of(at);
        let (ci, cj) = ((centre % self.width) as i64, (centre / self.width) as i64);
        let mut best = NEVER;
        for j in (cj - span).max(0)..=(cj + span).min(self.height as i64 - 1) {
            for i in (ci - span).max(0)..=(ci + span).min(self.width as i64 - 1) {
                let c = j as usize * self.width + i as usize;
                let (x, y) = self.centre(c);
                if (x - at.0).hypot(y - at.1) <= r {
                    best = best.min(turns[c]);
                }
            }
        }
        // A point closer to its own cell's centre than to any other still counts.
        best.min(if radius < self.cell { turns[centre] } else { NEVER })
    }
}

/// One movement row as the search uses it: its rate in each cell, at each water line, its cost
/// at each obstacle, and the moves (rate classes) to try.
#[derive(Clone, Debug)]
pub struct Row {
    /// The rule data id of the row (`infantry_road_column`).
    pub id: String,
    /// Per cell: the rate of the terrain there (Ch16 4.1), negative where it cannot go.
    cell_rate: Vec<f64>,
    /// Per battlefield line: the rate of crossing it away from a ford or bridge; None if it
    /// cannot be crossed (roads are never crossings).
    line_rate: Vec<Option<f64>>,
    /// Per obstacle: the inches a crossing costs, None if the row cannot cross it.
    obstacle_cost: Vec<Option<f64>>,
    classes: Vec<Class>,
    /// Its allowance in the open (the rate less the ground's penalty, raised to the minimum),
    /// which a formation change's cost is taken from (Ch16 3.2).
    pub open: f64,
    /// The Double-Time Advance's inches on top of each move in it (Ch16 2.3).
    pub double_time: DoubleTime,
    /// Whether a unit in it may fight: its formation does not forbid an assault (a road column
    /// may not, Ch16 3.1, 3.2). Guns, which have no formation, count as deployed.
    pub deployed: bool,
    /// The charge distance of a deployed row that has one (Ch16 3.1, 7.1): `charge 9`.
    pub charge: Option<f64>,
}

/// The inches the Double-Time Advance (Ch16 2.3) adds to a move in a row, off and on the road:
/// the `double_time` order's `move_bonus` for an infantry row in one of the order's formations,
/// and none off the road in deep mud (Ch13 21.0). Asked for, the search takes it on every move: it costs
/// one pip for the one regiment that leads (the search follows the colours, and assumes every
/// unit in command), and two in a row disorder only under the July Sun module (RULINGS C26).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DoubleTime {
    pub off_road: f64,
    pub on_road: f64,
}

impl DoubleTime {
    /// The bonus for a row in `formation`, from the rule data's `double_time` order.
    pub fn for_row(
        data: &RuleData,
        row: &MovementRate,
        formation: Option<&Formation>,
        ground: Option<&GroundCondition>,
    ) -> DoubleTime {
        let Some(order) = data.order(DOUBLE_TIME) else { return DoubleTime::default() };
        let Some(bonus) = order.move_bonus.filter(|b| b.is_finite() && *b > 0.0) else {
            return DoubleTime::default();
        };
        let in_formation = formation.is_some_and(|f| order.formations.contains(&f.meta.id));
        if row.arm != DOUBLE_TIME_ARM || !in_formation {
            return DoubleTime::default();
        }
        let mud = ground.is_some_and(|g| g.meta.id == Ground::Mud.id());
        DoubleTime { off_road: if mud { 0.0 } else { bonus }, on_road: bonus }
    }
}

/// One kind of move: every cell and crossing at a rate of at least `threshold`, at most `limit`
/// inches; `road` when it must stay on roads; `bonus` the Double-Time's inches in `limit`, which
/// also come on top of what a formation change leaves (Ch16 2.3).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Class {
    threshold: f64,
    limit: f64,
    road: bool,
    bonus: f64,
}

impl Row {
    /// A row over a grid (see the module doc). `ground` is the weather's ground condition when
    /// the weather module sets one (Ch13 21.0).
    pub fn new(
        grid: &Grid,
        bf: &Battlefield,
        row: &MovementRate,
        formation: Option<&Formation>,
        rulings: &Rulings,
        ground: Option<&GroundCondition>,
        double_time: DoubleTime,
    ) -> Row {
        let area_rate: Vec<Option<f64>> = bf
            .areas
            .iter()
            .map(|a| {
                if flagged_impassable(&a.flags) {
                    None
                } else {
                    terrain_rate(&a.terrain, row, formation, rulings)
                }
            })
            .collect();
        let open = row.rate(MoveColumn::Open);
        // The most restrictive area there sets the rate; an impassable one stops it.
        let cell_rate: Vec<f64> = (0..grid.len())
            .map(|c| {
                grid.areas[c]
                    .iter()
                    .try_fold(open, |rate, &a| area_rate[a].map(|r| rate.min(r)))
                    .unwrap_or(-1.0)
            })
            .collect();
        let line_rate: Vec<Option<f64>> = bf
            .lines
            .iter()
            .map(|l| {
                if flagged_impassable(&l.flags) {
                    None
                } else {
                    terrain_rate(&l.terrain, row, formation, rulings)
                }
            })
            .collect();
        let obstacle_cost: Vec<Option<f64>> =
            bf.obstacles.iter().map(|o| obstacle_cost(&o.obstacle, row, rulings)).collect();
        let penalty = ground.map_or(0.0, |g| g.penalty(row.arm));
        let allowance = |rate: f64| {
            let a = (rate - penalty).max(0.0);
            row.minimum.map_or(a, |m| a.max(m))
        };
        let mut thresholds: Vec<f64> = cell_rate.iter().copied().filter(|r| *r >= 0.0).collect();
        thresholds.extend(line_rate.iter().flatten().copied());
        thresholds.sort_by(f64::total_cmp);
        thresholds.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let mut classes: Vec<Class> = thresholds
            .into_iter()
            .map(|t| Class {
                threshold: t,
                limit: allowance(t) + double_time.off_road,
                road: false,
                bonus: double_time.off_road,
            })
            .collect();
        if grid.road.iter().any(|r| *r) {
            let road = row.rate(MoveColumn::Road);
            classes.push(Class {
                threshold: road,
                limit: allowance(road) + double_time.on_road,
                road: true,
                bonus: double_time.on_road,
            });
        }
        classes.retain(|c| c.limit > 0.0);
        let deployed = !formation.is_some_and(|f| f.no_assault);
        let charge = match row.charge {
            Charge::Inches(inches) if deployed && inches > 0.0 => Some(inches),
            _ => None,
        };
        Row {
            id: row.meta.id.clone(),
            cell_rate,
            line_rate,
            obstacle_cost,
            classes,
            open: allowance(open),
            double_time,
            deployed,
            charge,
        }
    }

    /// The rows a unit of this kind may move by: one per formation it may take from
    /// `formation` (its own, or the one it arrives in) by the formations' `change` lines (Ch16
    /// 3.2, dotc D47), each over the grid, with those changes at their prices. Dismounted
    /// cavalry may also remount (Ch16 10.2, at the `remount` maneuver's price) into a mounted
    /// line and what a line may become; guns move limbered.
    #[allow(clippy::too_many_arguments)]
    pub fn for_unit(
        grid: &Grid,
        bf: &Battlefield,
        data: &RuleData,
        rulings: &Rulings,
        ground: Option<&GroundCondition>,
        double_time: bool,
        kind: MoverKind,
        formation: Option<&str>,
    ) -> Moves {
        let mut movers: Vec<(Mover<'_>, Option<&Formation>)> = Vec::new();
        // Changes between the formations by their ids (from, to, cost), besides their own
        // `change` lines.
        let mut changes: Vec<(String, String, Cost)> = Vec::new();
        match kind {
            MoverKind::Infantry => {
                let start = formation.unwrap_or(LINE);
                movers.extend(
                    formations_from(data, start).into_iter().map(|f| (Mover::infantry(&f.meta.id), Some(f))),
                );
            }
            MoverKind::Cavalry if formation == Some(SKIRMISH) || formation.is_none() => {
                movers.push((Mover::dismounted_cavalry(), data.formation(SKIRMISH)));
                if let Some(remount) = data.maneuver(REMOUNT) {
                    movers.extend(
                        formations_from(data, LINE)
                            .into_iter()
                            .map(|f| (Mover::mounted_cavalry(&f.meta.id), Some(f))),
                    );
                    changes.push((SKIRMISH.to_string(), LINE.to_string(), remount.cost.unwrap_or(Cost::All)));
                }
            }
            MoverKind::Cavalry => {
                let start = formation.unwrap_or(LINE);
                movers.extend(
                    formations_from(data, start)
                        .into_iter()
                        .map(|f| (Mover::mounted_cavalry(&f.meta.id), Some(f))),
                );
            }
            MoverKind::Battery => movers.push((Mover::battery(true), None)),
            MoverKind::HorseBattery => movers.push((Mover::horse_battery(true), None)),
        }
        for f in movers.iter().filter_map(|(_, f)| *f) {
            changes.extend(f.changes.iter().map(|c| (f.meta.id.clone(), c.to.clone(), c.cost)));
        }
        let mut rows: Vec<Row> = Vec::new();
        // Each formation's row, by index into `rows`.
        let mut index: Vec<(String, usize)> = Vec::new();
        for (mover, formation) in movers {
            let Some(row) = movement_row(data, &mover, MoveKind::Advance, formation) else { continue };
            let id = formation.map_or(String::new(), |f| f.meta.id.clone());
            // A formation without a row of its own falls back on a general row: once is enough.
            match rows.iter().position(|r| r.id == row.meta.id) {
                Some(i) => index.push((id, i)),
                None => {
                    index.push((id, rows.len()));
                    let bonus = match double_time {
                        true => DoubleTime::for_row(data, &row, formation, ground),
                        false => DoubleTime::default(),
                    };
                    rows.push(Row::new(grid, bf, &row, formation, rulings, ground, bonus));
                }
            }
        }
        let row_of = |id: &str| index.iter().find(|(f, _)| f == id).map(|(_, i)| *i);
        let mut priced: Vec<Change> = Vec::new();
        for (from, to, cost) in changes {
            // dotc D47: forming road column from a deployed formation, as the judge prices it.
            let cost = if to == ROAD_COLUMN && from != ROAD_COLUMN {
                match rulings.road_column_change {
                    RoadColumnChange::WholeMove => cost,
                    RoadColumnChange::HalfMove => Cost::Half,
                    RoadColumnChange::Unpriced => continue,
                }
            } else {
                cost
            };
            let (Some(from), Some(to)) = (row_of(&from), row_of(&to)) else { continue };
            if from != to && !priced.iter().any(|c| c.from == from && c.to == to) {
                priced.push(Change { from, to, cost });
            }
        }
        let start = index.first().map_or(0, |(_, i)| *i);
        Moves { rows, changes: priced, start }
    }
}

/// A change of formation between two of a unit's rows ([`Moves::rows`] indices) and what it
/// costs of the move it is made in (Ch16 3.2, dotc D47).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub from: usize,
    pub to: usize,
    pub cost: Cost,
}

/// The ways a unit moves: a row per formation, the changes between them, and the row it starts
/// in.
#[derive(Clone, Debug)]
pub struct Moves {
    pub rows: Vec<Row>,
    pub changes: Vec<Change>,
    pub start: usize,
}

/// The formation a unit stands in when its declaration names none, and the ones a mounted
/// cavalry regiment and dismounted cavalry take (rule data ids).
const LINE: &str = "line";
const SKIRMISH: &str = "skirmish";
/// The `remount` maneuver (Ch16 10.2).
const REMOUNT: &str = dotc_lang::verbs::ManeuverVerb::Remount.word();

/// Every formation `start` may become by its `change` lines, itself first; none an optional
/// module gates. A change that takes the whole move (road column into line, Ch16 3.2; line or
/// assault column into road column, dotc D47) is among them: the search prices each change.
fn formations_from<'d>(data: &'d RuleData, start: &str) -> Vec<&'d Formation> {
    let mut out: Vec<&Formation> = Vec::new();
    let mut queue = vec![start.to_string()];
    while let Some(id) = queue.pop() {
        let Some(f) = data.formation(&id) else { continue };
        if f.module.is_some() || out.iter().any(|o| o.meta.id == f.meta.id) {
            continue;
        }
        out.push(f);
        queue.extend(f.changes.iter().map(|c| c.to.clone()));
    }
    out
}

/// How a unit moves, as the movement table tells units apart (Ch16 3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoverKind {
    Infantry,
    Cavalry,
    Battery,
    HorseBattery,
}

/// The earliest turn each cell is reached by units that stand at `sources` on turn `placed` (0:
/// at the start) and move on each turn of `moves` after it, in any formation: [`reach_by_row`]'s
/// earliest.
pub fn reach(grid: &Grid, ways: &Moves, sources: &[(f64, f64)], placed: u16, moves: &[u16]) -> Vec<u16> {
    let mut out = vec![NEVER; grid.len()];
    for row in reach_by_row(grid, ways, sources, placed, moves) {
        for (o, t) in out.iter_mut().zip(row) {
            *o = (*o).min(t);
        }
    }
    out
}

/// The earliest turn each cell is reached in each of the unit's rows ([`Moves::rows`] order), by
/// units that stand in its starting row at `sources` on turn `placed` (0: at the start) and move
/// on each turn of `moves` after it. Each move is made in one row, or is a change of formation
/// (Ch16 3.2, dotc D47) made where the unit stands and then, with what the change leaves of the
/// move, a move in the new row: a change costing half leaves half of the larger of the two rows'
/// open allowances (so never less than the rules leave), one costing the whole move leaves
/// nothing, and one costing inches leaves that allowance less them.
pub fn reach_by_row(
    grid: &Grid,
    ways: &Moves,
    sources: &[(f64, f64)],
    placed: u16,
    moves: &[u16],
) -> Vec<Vec<u16>> {
    let rows = &ways.rows;
    let mut turns = vec![vec![NEVER; grid.len()]; rows.len()];
    if rows.is_empty() || sources.is_empty() {
        return turns;
    }
    let start = ways.start.min(rows.len() - 1);
    for &s in sources {
        let c = grid.cell_of(s);
        turns[start][c] = turns[start][c].min(placed);
    }
    let mut scratch = Scratch { dist: vec![f64::INFINITY; grid.len()], touched: Vec::new() };
    // The first move starts from the units' own points, not their cells' centres: a unit's
    // cell starts at its distance from the centre (what the grid cannot follow exactly, it
    // makes a little longer, never shorter).
    let seeds: Vec<(usize, f64)> = sources
        .iter()
        .map(|&(x, y)| {
            let c = grid.cell_of((x, y));
            let (cx, cy) = grid.centre(c);
            let d = (cx - x).hypot(cy - y);
            (c, if d.is_finite() { d } else { 0.0 })
        })
        .collect();
    let mut first = true;
    for &turn in moves.iter().filter(|&&t| t > placed) {
        // Only the edge of the ground already reached in a row can take a move further (every
        // path from inside leaves through it, and is longer).
        let first_move = std::mem::take(&mut first);
        let edges: Vec<Vec<(usize, f64)>> = (0..rows.len())
            .map(|r| match first_move {
                true if r == start => seeds.clone(),
                true => Vec::new(),
                false => (0..grid.len())
                    .filter(|&c| {
                        turns[r][c] < turn
                            && (0..8).any(|k| grid.neighbour(c, k).is_some_and(|n| turns[r][n] == NEVER))
                    })
                    .map(|c| (c, 0.0))
                    .collect(),
            })
            .collect();
        if edges.iter().all(Vec::is_empty) {
            break;
        }
        let mut new = turns.clone();
        for (r, row) in rows.iter().enumerate() {
            advance(grid, row, &edges[r], &turns[r], &mut new[r], turn, None, &mut scratch);
        }
        for change in &ways.changes {
            let (from, to) = (change.from, change.to);
            // The change where it stands, which every cost allows.
            for c in 0..grid.len() {
                if turns[from][c] < turn && new[to][c] > turn {
                    new[to][c] = turn;
                }
            }
            let full = rows[from].open.max(rows[to].open);
            // A change that takes the whole move leaves nothing, not even the Double-Time's
            // inches; what any other leaves gets them on top, as the kind of move allows
            // (`advance`: none off the road in deep mud).
            let left = match change.cost {
                Cost::All => 0.0,
                Cost::Half => full / 2.0,
                Cost::Inches(inches) => full - inches,
            };
            if left > 0.0 {
                advance(
                    grid,
                    &rows[to],
                    &edges[from],
                    &turns[from],
                    &mut new[to],
                    turn,
                    Some(left),
                    &mut scratch,
                );
            }
        }
        turns = new;
    }
    turns
}

/// For each cell, the earliest turn from which a charge of `reach` inches in `row` gets there
/// (Ch16 3.1, 7.1): from a cell `ready` has reached on that turn, over ground the row may enter
/// (its obstacles at their cost), never across water away from a ford or bridge (a charge halts
/// at the water's edge with no melee, RULINGS G10). The terrain's charge penalties are not
/// taken (earliest possible). Turns after `last` are left out.
pub fn charge_reach(grid: &Grid, row: &Row, ready: &[u16], reach: f64, last: u16) -> Vec<u16> {
    let mut out = vec![NEVER; grid.len()];
    if reach.is_nan() || reach <= 0.0 {
        return out;
    }
    let charging = Row {
        line_rate: vec![None; row.line_rate.len()],
        classes: vec![Class { threshold: 0.0, limit: reach, road: false, bonus: 0.0 }],
        ..row.clone()
    };
    let mut levels: Vec<u16> = ready.iter().copied().filter(|t| *t <= last).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut scratch = Scratch { dist: vec![f64::INFINITY; grid.len()], touched: Vec::new() };
    for level in levels {
        let edge: Vec<(usize, f64)> =
            (0..grid.len()).filter(|&c| ready[c] == level).map(|c| (c, 0.0)).collect();
        let before = out.clone();
        advance(grid, &charging, &edge, &before, &mut out, level, None, &mut scratch);
    }
    out
}

/// The distances of one search, kept between searches so each starts clean at no cost.
struct Scratch {
    dist: Vec<f64>,
    touched: Vec<usize>,
}

/// One move in `row` from `edge` (cells, with the inches already used to get there), at most
/// `left` inches when a change of formation took part of it: every cell reached gets `turn` in
/// `new`. Cells `before` shows reached on an earlier turn are not gone back into (a path back
/// out of them leaves by their edge, a source of its own and nearer).
#[allow(clippy::too_many_arguments)]
fn advance(
    grid: &Grid,
    row: &Row,
    edge: &[(usize, f64)],
    before: &[u16],
    new: &mut [u16],
    turn: u16,
    left: Option<f64>,
    scratch: &mut Scratch,
) {
    let Scratch { dist, touched } = scratch;
    for class in &row.classes {
        let allowed = |c: usize| {
            if class.road { grid.road[c] } else { row.cell_rate[c] >= class.threshold - 1e-9 }
        };
        let mut heap = BinaryHeap::new();
        for &(c, d) in edge.iter().filter(|(c, _)| allowed(*c)) {
            if d < dist[c] {
                if dist[c].is_infinite() {
                    touched.push(c);
                }
                dist[c] = d;
                heap.push(Reverse((d.to_bits(), c)));
            }
        }
        // What a formation change leaves, with this kind of move's Double-Time on top.
        let limit =
            left.map_or(class.limit, |l| class.limit.min(l + class.bonus)) * GRID_SLACK + MEASURE_PRECISION;
        while let Some(Reverse((bits, c))) = heap.pop() {
            let d = f64::from_bits(bits);
            if d > dist[c] || d > limit {
                continue;
            }
            if new[c] > turn {
                new[c] = turn;
            }
            for (k, &(di, dj)) in STEPS.iter().enumerate() {
                let Some(n) = grid.neighbour(c, k) else { continue };
                if before[n] < turn || !allowed(n) {
                    continue;
                }
                let mut cost = grid.cell * f64::from(di * di + dj * dj).sqrt();
                let slot = grid.steps[c * STEPS.len() + k];
                if slot != u32::MAX {
                    let cross = &grid.crossings[slot as usize];
                    let water_ok = cross
                        .lines
                        .iter()
                        .all(|&l| row.line_rate[l].is_some_and(|r| r >= class.threshold - 1e-9));
                    if !water_ok {
                        continue;
                    }
                    let mut blocked = false;
                    for &o in &cross.obstacles {
                        match row.obstacle_cost[o] {
                            Some(extra) => cost += extra,
                            None => blocked = true,
                        }
                    }
                    if blocked {
                        continue;
                    }
                }
                let nd = d + cost;
                if nd <= limit && nd < dist[n] {
                    if dist[n].is_infinite() {
                        touched.push(n);
                    }
                    dist[n] = nd;
                    heap.push(Reverse((nd.to_bits(), n)));
                }
            }
        }
        for &c in touched.iter() {
            dist[c] = f64::INFINITY;
        }
        touched.clear();
    }
}

/// For each cell, the earliest turn some cell within `radius` inches of it is reached (the
/// reach of `turns` widened by `radius`), for the turns up to `last`: exact Euclidean distances
/// between cell centres.
pub fn widen(grid: &Grid, turns: &[u16], radius: f64, last: u16) -> Vec<u16> {
    let mut levels: Vec<u16> = turns.iter().copied().filter(|t| *t <= last).collect();
    levels.sort_unstable();
    levels.dedup();
    let mut out = vec![NEVER; grid.len()];
    let r = (radius + MEASURE_PRECISION) / grid.cell;
    let r2 = r * r;
    if r < 4.0 {
        // A small disc: the earliest turn among the cells whose centres lie in it.
        let span = r.floor() as i64;
        let offsets: Vec<(i64, i64)> = (-span..=span)
            .flat_map(|dj| (-span..=span).map(move |di| (di, dj)))
            .filter(|(di, dj)| (di * di + dj * dj) as f64 <= r2)
            .collect();
        let (w, h) = (grid.width as i64, grid.height as i64);
        for (c, slot) in out.iter_mut().enumerate() {
            let (i, j) = ((c % grid.width) as i64, (c / grid.width) as i64);
            let mut best = NEVER;
            for (di, dj) in &offsets {
                let (ni, nj) = (i + di, j + dj);
                if ni >= 0 && nj >= 0 && ni < w && nj < h {
                    let t = turns[(nj * w + ni) as usize];
                    if t <= last {
                        best = best.min(t);
                    }
                }
            }
            *slot = best;
        }
        return out;
    }
    for level in levels {
        let d2 = squared_distance(grid.width, grid.height, |c| turns[c] <= level);
        for c in 0..grid.len() {
            if out[c] == NEVER && d2[c] <= r2 {
                out[c] = level;
            }
        }
    }
    out
}

/// Squared Euclidean distance (in cells) from each cell to the nearest cell in the set
/// (Felzenszwalb and Huttenlocher's two passes).
fn squared_distance(w: usize, h: usize, inside: impl Fn(usize) -> bool) -> Vec<f64> {
    const INF: f64 = 1e20;
    let mut f: Vec<f64> = (0..w * h).map(|c| if inside(c) { 0.0 } else { INF }).collect();
    let mut column = vec![0.0; h];
    let mut out = vec![0.0; h.max(w)];
    for i in 0..w {
        for j in 0..h {
            column[j] = f[j * w + i];
        }
        transform(&column, &mut out[..h]);
        for j in 0..h {
            f[j * w + i] = out[j];
        }
    }
    let mut row = vec![0.0; w];
    for j in 0..h {
        row.copy_from_slice(&f[j * w..(j + 1) * w]);
        transform(&row, &mut out[..w]);
        f[j * w..(j + 1) * w].copy_from_slice(&out[..w]);
    }
    f
}

/// The 1D squared distance transform of a sampled function.
fn transform(f: &[f64], d: &mut [f64]) {
    let n = f.len();
    if n == 0 {
        return;
    }
    let mut v = vec![0usize; n];
    let mut z = vec![0.0f64; n + 1];
    let mut k = 0usize;
    z[0] = f64::NEG_INFINITY;
    z[1] = f64::INFINITY;
    let inter = |q: usize, p: usize| {
        ((f[q] + (q * q) as f64) - (f[p] + (p * p) as f64)) / (2.0 * q as f64 - 2.0 * p as f64)
    };
    for q in 1..n {
        let mut s = inter(q, v[k]);
        while k > 0 && s <= z[k] {
            k -= 1;
            s = inter(q, v[k]);
        }
        k += 1;
        v[k] = q;
        z[k] = s;
        z[k + 1] = f64::INFINITY;
    }
    k = 0;
    for (q, out) in d.iter_mut().enumerate() {
        while z[k + 1] < q as f64 {
            k += 1;
        }
        let p = v[k];
        let dq = q as f64 - p as f64;
        *out = dq * dq + f[p];
    }
}

/// The first turn on which both reaches have cells within `radius` of each other.
pub fn first_within(grid: &Grid, a: &[u16], b: &[u16], radius: f64) -> u16 {
    first_together(a, &widen(grid, b, radius, NEVER - 1))
}

/// The first turn on which some cell is reached by both `a` and `wide` (one reach, the other
/// already widened by [`widen`]: a caller asking many times widens each once).
pub fn first_together(a: &[u16], wide: &[u16]) -> u16 {
    a.iter().zip(wide).map(|(x, y)| (*x).max(*y)).min().unwrap_or(NEVER)
}

#[cfg(test)]
#[path = "reach_tests.rs"]
mod tests;
