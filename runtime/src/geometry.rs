//! Table geometry: unit footprints in inches, built with the `geo` crate.
//!
//! A unit's position is the centre of the front edge of its Color Stand (RULE-05-1.4); its
//! facing is a compass bearing (0 = north, 90 = east). Stands are as wide as the rule data's
//! `scale table` says (1", Ch15 8.0, Ch16 3.2: each [`Layout`] carries it) and [`STAND_DEPTH`]
//! deep. A formation lays its stands out in ranks behind that front edge.

use geo::{Area, BooleanOps, BoundingRect, Coord, LineString, Polygon};

/// The depth of a stand in inches. The rulebook fixes frontage but not depth; 0.75" is the
/// common base for 15mm figures and only matters for overlap checks: dotc's own, not a rule.
pub const STAND_DEPTH: f64 = 0.75;
/// Overlaps smaller than this (square inches) are measuring noise, not stacking.
pub const OVERLAP_TOLERANCE: f64 = 0.01;
/// Distances are compared at this precision (inches): a measured 6.000000000000001" is 6.0",
/// so the `<=` convention of RULINGS G4 survives the rounding of sines and cosines. dotc's own,
/// not a rule.
pub const MEASURE_PRECISION: f64 = 1e-9;

/// A distance as the rules compare it: rounded to [`MEASURE_PRECISION`].
pub fn measured(inches: f64) -> f64 {
    (inches * 1e9).round() / 1e9
}

/// How a unit's stands sit: so many stands across the front, the rest in ranks behind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Stands in the front rank.
    pub across: u32,
    /// Ranks of stands.
    pub ranks: u32,
    /// Gap between stands in a rank, inches (open order and skirmishers).
    pub gap: f64,
    /// Stands in all (the last rank may be short).
    pub stands: u32,
    /// The frontage of one stand, inches (the rule data's `scale table`, Ch15 8.0).
    pub stand_width: f64,
}

impl Layout {
    /// Lay `stands`, each `stand_width` wide, out with at most `frontage` stands across (None =
    /// all in one rank).
    pub fn new(stands: u32, frontage: Option<u32>, gap: f64, stand_width: f64) -> Layout {
        let stands = stands.max(1);
        let across = frontage.map_or(stands, |f| f.clamp(1, stands));
        Layout { across, ranks: stands.div_ceil(across), gap, stands, stand_width }
    }

    /// The same formation with `remaining` stands (at least 1): a line stays one rank and
    /// narrows, a column keeps its frontage and loses ranks (RULE-05-3.3: stands go from the
    /// outer flanks, so the front stays centred on the colours).
    pub fn shrunk(&self, remaining: u32) -> Layout {
        let frontage = if self.across >= self.stands { None } else { Some(self.across) };
        Layout::new(remaining.min(self.stands), frontage, self.gap, self.stand_width)
    }

    /// Where stand `index` sits: (left edge across the front, depth of its front edge behind
    /// the unit's front), both in inches from the unit's front centre. Stands are numbered rank
    /// by rank from the front, left to right as the unit faces; a short last rank is centred.
    pub fn slot(&self, index: u32) -> (f64, f64) {
        let rank = index / self.across;
        let column = index % self.across;
        let in_rank = self.across.min(self.stands.saturating_sub(rank * self.across)).max(1);
        let rank_width = in_rank as f64 * self.stand_width + self.gap * (in_rank - 1) as f64;
        let left = -rank_width / 2.0 + column as f64 * (self.stand_width + self.gap);
        (left, rank as f64 * STAND_DEPTH)
    }

    pub fn width(&self) -> f64 {
        self.across as f64 * self.stand_width + self.gap * (self.across.saturating_sub(1)) as f64
    }

    pub fn depth(&self) -> f64 {
        self.ranks as f64 * STAND_DEPTH
    }
}

/// The unit vector of a compass bearing (0 = north, 90 = east) in table coordinates (x east,
/// y north). Exact on the four cardinal bearings, so units facing north, east, south or west
/// stand exactly where their numbers say.
pub fn bearing_vector(facing_degrees: f64) -> (f64, f64) {
    let bearing = facing_degrees.rem_euclid(360.0);
    if bearing == 0.0 {
        (0.0, 1.0)
    } else if bearing == 90.0 {
        (1.0, 0.0)
    } else if bearing == 180.0 {
        (0.0, -1.0)
    } else if bearing == 270.0 {
        (-1.0, 0.0)
    } else {
        let theta = bearing.to_radians();
        (theta.sin(), theta.cos())
    }
}

/// A unit's own axes: its front centre, the way it faces and the way to its right. Points are
/// given as (across, ahead): inches to the right of the front centre (negative = left) and inches
/// in front of the front edge's line (negative = behind it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub origin: (f64, f64),
    pub forward: (f64, f64),
    pub right: (f64, f64),
}

impl Frame {
    pub fn new(origin: (f64, f64), facing_degrees: f64) -> Frame {
        let forward = bearing_vector(facing_degrees);
        // The forward vector turned a quarter clockwise.
        let right = (forward.1, -forward.0);
        Frame { origin, forward, right }
    }

    /// The table position of a point given in this frame.
    pub fn to_table(&self, across: f64, ahead: f64) -> Coord<f64> {
        Coord {
            x: self.origin.0 + self.right.0 * across + self.forward.0 * ahead,
            y: self.origin.1 + self.right.1 * across + self.forward.1 * ahead,
        }
    }

    /// A table position in this frame: (across, ahead).
    pub fn to_local(&self, point: Coord<f64>) -> (f64, f64) {
        let (dx, dy) = (point.x - self.origin.0, point.y - self.origin.1);
        (dx * self.right.0 + dy * self.right.1, dx * self.forward.0 + dy * self.forward.1)
    }

    /// The rectangle from `left` to `right` across and from `back` to `front` ahead.
    pub fn rectangle(&self, left: f64, right: f64, back: f64, front: f64) -> Polygon<f64> {
        let ring = vec![
            self.to_table(left, front),
            self.to_table(right, front),
            self.to_table(right, back),
            self.to_table(left, back),
            self.to_table(left, front),
        ];
        Polygon::new(LineString::from(ring), vec![])
    }
}

/// The rectangle a unit covers: centred on `front_centre`, extending backward from the front
/// edge along the reverse of `facing_degrees`.
pub fn footprint(front_centre: (f64, f64), facing_degrees: f64, layout: Layout) -> Polygon<f64> {
    let half = layout.width() / 2.0;
    Frame::new(front_centre, facing_degrees).rectangle(-half, half, -layout.depth(), 0.0)
}

/// Each stand's rectangle, in [`Layout::slot`] order (front rank first, left to right).
pub fn stand_rectangles(front_centre: (f64, f64), facing_degrees: f64, layout: Layout) -> Vec<Polygon<f64>> {
    let frame = Frame::new(front_centre, facing_degrees);
    (0..layout.stands)
        .map(|i| {
            let (left, back) = layout.slot(i);
            frame.rectangle(left, left + layout.stand_width, -back - STAND_DEPTH, -back)
        })
        .collect()
}

/// The area two shapes share, in square inches (0 when they only touch). Two shapes whose
/// bounding boxes are apart share nothing, which is decided without the boolean intersection:
/// most pairs a replay asks about (a stand and a wood, a move and a field across the table)
/// are far apart, and the intersection is the costliest step of cover and movement (issue 16).
pub fn overlap_area(a: &Polygon<f64>, b: &Polygon<f64>) -> f64 {
    if boxes_apart(a, b) {
        return 0.0;
    }
    a.intersection(b).unsigned_area()
}

/// Whether the bounding boxes of two shapes are apart (touching is not apart), so the shapes
/// cannot share any point. An empty shape is apart from everything.
pub fn boxes_apart(a: &Polygon<f64>, b: &Polygon<f64>) -> bool {
    rects_apart(a.bounding_rect(), b.bounding_rect())
}

/// Whether a segment's bounding box is apart from a shape's (touching is not apart), so the
/// segment cannot meet the shape.
pub fn box_apart_from_line(shape: &Polygon<f64>, line: &geo::Line<f64>) -> bool {
    rects_apart(shape.bounding_rect(), Some(line.bounding_rect()))
}

/// Whether two boxes are apart (touching is not apart); a missing box (of an empty shape) is
/// apart from everything.
pub fn rects_apart(a: Option<geo::Rect<f64>>, b: Option<geo::Rect<f64>>) -> bool {
    let (Some(a), Some(b)) = (a, b) else { return true };
    a.max().x < b.min().x || b.max().x < a.min().x || a.max().y < b.min().y || b.max().y < a.min().y
}

/// The box around every one of `shapes`; None when there is none.
pub fn bounds(shapes: &[Polygon<f64>]) -> Option<geo::Rect<f64>> {
    shapes.iter().filter_map(BoundingRect::bounding_rect).reduce(|a, b| {
        geo::Rect::new(
            geo::Coord { x: a.min().x.min(b.min().x), y: a.min().y.min(b.min().y) },
            geo::Coord { x: a.max().x.max(b.max().x), y: a.max().y.max(b.max().y) },
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_stand_line_is_five_inches_wide() {
        let layout = Layout::new(5, None, 0.0, 1.0);
        assert_eq!(layout.width(), 5.0);
        let p = footprint((10.0, 10.0), 0.0, layout);
        // Facing north: the front edge runs east-west at y = 10, the unit lies south of it.
        let area = p.unsigned_area();
        assert!((area - 5.0 * STAND_DEPTH).abs() < 1e-9);
        let ys: Vec<f64> = p.exterior().coords().map(|c| c.y).collect();
        assert!(ys.iter().all(|&y| (10.0 - STAND_DEPTH - 1e-9..=10.0 + 1e-9).contains(&y)));
    }

    #[test]
    fn an_assault_column_is_two_stands_across() {
        let layout = Layout::new(5, Some(2), 0.0, 1.0);
        assert_eq!((layout.across, layout.ranks), (2, 3));
        assert_eq!(layout.width(), 2.0);
    }

    #[test]
    fn cardinal_bearings_are_exact_and_measures_snap() {
        assert_eq!(bearing_vector(90.0), (1.0, 0.0));
        assert_eq!(bearing_vector(-90.0), (-1.0, 0.0));
        assert_eq!(bearing_vector(540.0), (0.0, -1.0));
        let frame = Frame::new((10.0, 5.0), 270.0);
        assert_eq!(frame.right, (0.0, 1.0)); // facing west, the right hand points north
        assert_eq!(frame.to_local(frame.to_table(2.0, 3.0)), (2.0, 3.0));
        assert_eq!(measured(6.000000000000001), 6.0);
        assert_eq!(measured(5.9999999999), 6.0);
        assert_eq!(measured(6.01), 6.01);
    }

    #[test]
    fn touching_units_do_not_overlap_but_crossing_ones_do() {
        let a = footprint((10.0, 10.0), 0.0, Layout::new(4, None, 0.0, 1.0));
        let touching = footprint((14.0, 10.0), 0.0, Layout::new(4, None, 0.0, 1.0));
        let crossing = footprint((12.0, 10.0), 90.0, Layout::new(4, None, 0.0, 1.0));
        assert!(overlap_area(&a, &touching) < OVERLAP_TOLERANCE);
        assert!(overlap_area(&a, &crossing) > OVERLAP_TOLERANCE);
    }
}
