//! Table geometry: unit footprints in inches, built with the `geo` crate.
//!
//! A unit's position is the centre of the front edge of its Color Stand (RULE-05-1.4); its
//! facing is a compass bearing (0 = north, 90 = east). Stands are 1" wide (Ch16 3.2, Ch15 8.0)
//! and [`STAND_DEPTH`] deep. A formation lays its stands out in ranks behind that front edge.

use geo::{Area, BooleanOps, Coord, LineString, Polygon};

/// The depth of a stand in inches. The rulebook fixes frontage (1" per stand) but not depth;
/// 0.75" is the common base for 15mm figures and only matters for overlap checks.
pub const STAND_DEPTH: f64 = 0.75;
/// Overlaps smaller than this (square inches) are measuring noise, not stacking.
pub const OVERLAP_TOLERANCE: f64 = 0.01;

/// How a unit's stands sit: so many stands across the front, the rest in ranks behind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Stands in the front rank.
    pub across: u32,
    /// Ranks of stands.
    pub ranks: u32,
    /// Gap between stands in a rank, inches (open order and skirmishers).
    pub gap: f64,
}

impl Layout {
    /// Lay `stands` out with at most `frontage` stands across (None = all in one rank).
    pub fn new(stands: u32, frontage: Option<u32>, gap: f64) -> Layout {
        let stands = stands.max(1);
        let across = frontage.map_or(stands, |f| f.clamp(1, stands));
        Layout { across, ranks: stands.div_ceil(across), gap }
    }

    pub fn width(&self) -> f64 {
        self.across as f64 + self.gap * (self.across.saturating_sub(1)) as f64
    }

    pub fn depth(&self) -> f64 {
        self.ranks as f64 * STAND_DEPTH
    }
}

/// The rectangle a unit covers: centred on `front_centre`, extending backward from the front
/// edge along the reverse of `facing_degrees`.
pub fn footprint(front_centre: (f64, f64), facing_degrees: f64, layout: Layout) -> Polygon<f64> {
    let theta = facing_degrees.to_radians();
    // Facing vector (towards the enemy) and the vector to the unit's right.
    let forward = (theta.sin(), theta.cos());
    let right = (theta.cos(), -theta.sin());
    let half = layout.width() / 2.0;
    let depth = layout.depth();
    let (x, y) = front_centre;
    let corner = |side: f64, back: f64| Coord {
        x: x + right.0 * side - forward.0 * back,
        y: y + right.1 * side - forward.1 * back,
    };
    let ring = vec![
        corner(-half, 0.0),
        corner(half, 0.0),
        corner(half, depth),
        corner(-half, depth),
        corner(-half, 0.0),
    ];
    Polygon::new(LineString::from(ring), vec![])
}

/// The area two footprints share, in square inches (0 when they only touch).
pub fn overlap_area(a: &Polygon<f64>, b: &Polygon<f64>) -> f64 {
    a.intersection(b).unsigned_area()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_stand_line_is_five_inches_wide() {
        let layout = Layout::new(5, None, 0.0);
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
        let layout = Layout::new(5, Some(2), 0.0);
        assert_eq!((layout.across, layout.ranks), (2, 3));
        assert_eq!(layout.width(), 2.0);
    }

    #[test]
    fn touching_units_do_not_overlap_but_crossing_ones_do() {
        let a = footprint((10.0, 10.0), 0.0, Layout::new(4, None, 0.0));
        let touching = footprint((14.0, 10.0), 0.0, Layout::new(4, None, 0.0));
        let crossing = footprint((12.0, 10.0), 90.0, Layout::new(4, None, 0.0));
        assert!(overlap_area(&a, &touching) < OVERLAP_TOLERANCE);
        assert!(overlap_area(&a, &crossing) > OVERLAP_TOLERANCE);
    }
}
