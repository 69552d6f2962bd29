//! Firing range: RULE-05-1.4 and RULINGS G4.
//!
//! Range runs from the centre of the firer's Color Stand front edge (a battery: the midpoint of
//! its guns' front; both are [`Body::colours`]) to the nearest point of the nearest stand of the
//! target. One band covers the whole volley. Band limits are inclusive at the top (RULINGS G4:
//! exactly 6.0" is Short, 6.01" is Medium), and distances are compared at
//! [`crate::geometry::MEASURE_PRECISION`] so rounding never moves a unit across a limit.
//!
//! Range is not symmetric: it starts at one point of the firer (its colours) but ends at the
//! nearest point of the target, so `range(a, b)` and `range(b, a)` differ whenever the two fronts
//! are not squarely opposite each other. It is never negative, and 0 when the colours touch or
//! stand inside a target stand.

use dotc_lang::library::{Arm, Band, Weapon};
use geo::{Distance, Euclidean, Line, Point};

use super::body::Body;
use crate::geometry::{STAND_DEPTH, measured};

/// Inches from the firer's colours to the nearest point of the target's nearest stand
/// (RULE-05-1.4, RULINGS G4).
pub fn range(firer: &Body, target: &Body) -> f64 {
    distance_to(firer.colours(), target)
}

/// The diameter of a brigadier's round base, inches: dotc's ruling D7 (`brigadier_base =
/// round_1in`), the base the map draws him on (dotc's own, not a rule: the rulebook sizes only a
/// commander's base, RULE-07-4.1).
pub const BRIGADIER_BASE: f64 = 1.0;

/// Command range (Ch16 2.2): inches from the edge of a brigadier's base, `base_radius` out from
/// his position (dotc D7), to the centre of the front edge of the regiment's Color Stand; 0 when
/// the base reaches it.
pub fn command_range(leader: Point<f64>, base_radius: f64, body: &Body) -> f64 {
    measured((Euclidean.distance(&leader, &body.colours()) - base_radius).max(0.0))
}

/// Inches from a point to the nearest point of a unit's stands (0 inside one).
///
/// Worked in the unit's own frame, where every stand is a rectangle square to the axes: the
/// point is turned into that frame once, and its distance to each stand is how far it lies
/// outside the stand across and ahead, with no polygon built (issue 16: the replay asks this
/// for every enemy of every volley's firer). The frame is a rotation, so distances are the
/// table's; the answer agrees with the distance to the stands' polygons to far below
/// [`crate::geometry::MEASURE_PRECISION`] (the proptest below).
pub fn distance_to(point: Point<f64>, body: &Body) -> f64 {
    let (across, ahead) = body.frame().to_local(point.0);
    let layout = body.layout;
    let nearest = (0..layout.stands)
        .map(|i| {
            let (left, back) = layout.slot(i);
            let (front, rear) = (-back, -back - STAND_DEPTH);
            let out_across = (left - across).max(across - (left + layout.stand_width)).max(0.0);
            let out_ahead = (rear - ahead).max(ahead - front).max(0.0);
            // Squared, and the root taken once of the least (issue 16: `hypot` for every stand
            // was a twentieth of the replay; the root is monotonic, so the least is the same).
            out_across * out_across + out_ahead * out_ahead
        })
        .fold(f64::INFINITY, f64::min);
    if nearest.is_finite() { measured(nearest.sqrt()) } else { 0.0 }
}

/// The nearest point of a unit's stands to `point` (the point itself when inside one or on its
/// edge).
///
/// Worked in the unit's frame like [`distance_to`]: the point is clamped into each stand's
/// rectangle. Between stands equally near, the last in [`Body::stands`] order is taken, as the
/// closest point of the stands' polygons would be (the proptest below holds the two together).
pub fn nearest_point(point: Point<f64>, body: &Body) -> Point<f64> {
    let frame = body.frame();
    let (across, ahead) = frame.to_local(point.0);
    let layout = body.layout;
    let mut best: Option<(f64, f64, f64)> = None;
    for i in 0..layout.stands {
        let (left, back) = layout.slot(i);
        let on_across = across.clamp(left, left + layout.stand_width);
        let on_ahead = ahead.clamp(-back - STAND_DEPTH, -back);
        // Compared squared: the nearest stand is the same without a root per stand.
        let (d_across, d_ahead) = (on_across - across, on_ahead - ahead);
        let gap = d_across * d_across + d_ahead * d_ahead;
        if gap == 0.0 {
            return point;
        }
        if best.is_none_or(|(nearest, _, _)| gap <= nearest) {
            best = Some((gap, on_across, on_ahead));
        }
    }
    match best {
        Some((_, on_across, on_ahead)) => Point::from(frame.to_table(on_across, on_ahead)),
        None => body.colours(),
    }
}

/// The line range is measured along: from the firer's colours to the nearest point of the
/// target. Sight, smoke, dead ground and obstacle cover are judged along it.
pub fn range_line(firer: &Body, target: &Body) -> Line<f64> {
    let from = firer.colours();
    Line::new(from.0, nearest_point(from, target).0)
}

/// The band a weapon fired by `arm` reaches a target at `range` inches in, None out of range
/// (Ch16 5.2, 5.3, 10.3; RULINGS G4: the upper limit of a band belongs to it).
pub fn band(weapon: &Weapon, arm: Arm, range: f64) -> Option<Band> {
    weapon.band_at(arm, measured(range))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Layout;
    use dotc_lang::library::BandName;
    use geo::{Closest, ClosestPoint};

    fn line(position: (f64, f64), facing: f64, stands: u32) -> Body {
        Body::new(position, facing, Layout::new(stands, None, 0.0, 1.0))
    }

    #[test]
    fn range_runs_from_the_colours_to_the_nearest_stand() {
        // Firer facing north at (0, 0). Target 5-stand line facing south at (0, 10): its front
        // edge is y = 10 from x = -2.5 to 2.5, so the nearest point is (0, 10): 10".
        let firer = line((0.0, 0.0), 0.0, 5);
        assert_eq!(range(&firer, &line((0.0, 10.0), 180.0, 5)), 10.0);
        // The same target moved 6" east: front edge x = 3.5..8.5 at y = 10. Nearest point (3.5, 10):
        // sqrt(3.5^2 + 10^2) = sqrt(112.25) = 10.5948...
        // Not from the firer's nearest stand: its right flank stand (x = 1.5..2.5) is only
        // sqrt(1 + 100) = 10.05" from that point, but range starts at the colours.
        let r = range(&firer, &line((6.0, 10.0), 180.0, 5));
        assert!((r - 112.25f64.sqrt()).abs() < 1e-9, "{r}");
    }

    proptest::proptest! {
        /// The distance worked in the unit's frame is the distance to its stands' polygons.
        #[test]
        fn distance_in_the_units_frame_is_the_distance_to_its_stands(
            (x, y, facing) in (-30.0f64..30.0, -30.0f64..30.0, 0.0f64..360.0),
            (stands, across, gap) in (1u32..9, 1u32..5, proptest::sample::select(vec![0.0, 0.5, 1.0])),
            (px, py) in (-40.0f64..40.0, -40.0f64..40.0),
        ) {
            let body = Body::new((x, y), facing, Layout::new(stands, Some(across), gap, 1.0));
            let point = Point::new(px, py);
            let polygons = body.stands().iter().map(|s| Euclidean.distance(&point, s)).fold(f64::INFINITY, f64::min);
            // Both sides are rounded to the nearest 1e-9 (`measured`): two values a hair apart
            // either side of a rounding step come out one step apart.
            proptest::prop_assert!((distance_to(point, &body) - measured(polygons)).abs() <= 2e-9);
        }

        /// The nearest point worked in the unit's frame is as near as the polygons' closest
        /// point, and lies on a stand.
        #[test]
        fn the_nearest_point_in_the_units_frame_is_the_polygons_closest(
            (x, y, facing) in (-30.0f64..30.0, -30.0f64..30.0, 0.0f64..360.0),
            (stands, across, gap) in (1u32..9, 1u32..5, proptest::sample::select(vec![0.0, 0.5, 1.0])),
            (px, py) in (-40.0f64..40.0, -40.0f64..40.0),
        ) {
            let body = Body::new((x, y), facing, Layout::new(stands, Some(across), gap, 1.0));
            let point = Point::new(px, py);
            let theirs = match geo::MultiPolygon::new(body.stands()).closest_point(&point) {
                Closest::Intersection(p) | Closest::SinglePoint(p) => p,
                Closest::Indeterminate => body.colours(),
            };
            let ours = nearest_point(point, &body);
            let (d_ours, d_theirs) = (Euclidean.distance(&point, &ours), Euclidean.distance(&point, &theirs));
            proptest::prop_assert!((d_ours - d_theirs).abs() <= 1e-9, "{ours:?} vs {theirs:?}");
            proptest::prop_assert!(distance_to(ours, &body) <= 1e-9);
        }
    }

    #[test]
    fn range_is_not_symmetric() {
        // A (facing north at (0, 0), 5 stands) and B (facing west at (10, 3), 3 stands: front
        // edge x = 10, y = 1.5..4.5, stands x = 10..10.75).
        // A -> B: from (0, 0) to B's nearest point (10, 1.5): sqrt(100 + 2.25) = 10.1119...
        // B -> A: from (10, 3) to A's nearest point (2.5, 0): sqrt(56.25 + 9) = 8.0777...
        let a = line((0.0, 0.0), 0.0, 5);
        let b = line((10.0, 3.0), 270.0, 3);
        assert!((range(&a, &b) - 102.25f64.sqrt()).abs() < 1e-9);
        assert!((range(&b, &a) - 65.25f64.sqrt()).abs() < 1e-9);
    }

    #[test]
    fn exactly_six_inches_is_short_and_six_point_oh_one_is_medium() {
        // RULINGS G4: the band's upper limit belongs to it. Rifled musket: Short to 6 (4+),
        // Medium to 14 (4+), Long to 20 (5+).
        let data = dotc_lang::stdlib();
        let musket = data.weapon("rifled_musket").unwrap();
        let firer = line((0.0, 0.0), 0.0, 5);
        let at_six = line((0.0, 6.0), 180.0, 5);
        assert_eq!(range(&firer, &at_six), 6.0);
        assert_eq!(band(musket, Arm::Infantry, range(&firer, &at_six)).unwrap().name, BandName::Short);
        let beyond = line((0.0, 6.01), 180.0, 5);
        assert_eq!(band(musket, Arm::Infantry, range(&firer, &beyond)).unwrap().name, BandName::Medium);
        // At an angle the sines and cosines round, but 6.0" stays 6.0": the firer faces 30
        // degrees and the target stands squarely 6" ahead of it, facing it.
        let oblique = Body::new((0.0, 0.0), 30.0, Layout::new(5, None, 0.0, 1.0));
        let p = oblique.frame().to_table(0.0, 6.0);
        assert_eq!(range(&oblique, &line((p.x, p.y), 210.0, 5)), 6.0);
        assert_eq!(band(musket, Arm::Infantry, 20.0).unwrap().name, BandName::Long);
        assert!(band(musket, Arm::Infantry, 20.01).is_none());
    }

    #[test]
    fn a_battery_measures_from_the_middle_of_its_guns() {
        // 2 sections facing north at (0, 0): guns at x = -1..0 and 0..1; the midpoint of their
        // front is (0, 0). A target 1 stand wide at (1, 8) facing south: nearest point (0.5, 8):
        // sqrt(0.25 + 64) = 8.0156...
        let battery = line((0.0, 0.0), 0.0, 2);
        let target = line((1.0, 8.0), 180.0, 1);
        assert!((range(&battery, &target) - 64.25f64.sqrt()).abs() < 1e-9);
    }
}
