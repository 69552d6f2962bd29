//! Arcs and zones around a unit: Ch16 4.5, RULE-05-1.4, RULE-05-1.5, RULINGS G13 and C15.
//!
//! Angles are measured from the unit's facing (RULINGS G13):
//!
//! - the **front arc** lies between two rays drawn 45 degrees outward from the front-left and
//!   front-right corners (RULE-05-1.4: "the 45-degree forward cone");
//! - a **flank zone** lies between such a ray and the **90-degree line**, the front edge
//!   extended outward past each front corner;
//! - the **rear** is everything behind that line (the side of it the unit's own stands are on).
//!
//! Boundaries: a point or stand exactly on a 45-degree ray is in the front arc, and a point
//! exactly on the 90-degree line is behind it (the boundary belongs to the zone the rule names,
//! so the player who measured it exactly gets what he measured for). Ties are judged at
//! [`MEASURE_PRECISION`].
//!
//! Enfilade (RULE-05-1.5, RULINGS C15): the firer counts its firing stands (the front rank)
//! that are wholly on or behind the target's 90-degree line. [`Enfilade::EntirelyBehind`] (the
//! default) needs every one of them; [`Enfilade::MajorityBehind`] (Ch16 4.5) more than half.

use geo::{Coord, CoordsIter, Intersects, LineString, Point, Polygon};

use super::body::Body;
use crate::geometry::MEASURE_PRECISION;
use crate::rulings::Enfilade;

/// How far the arc's rays are drawn: farther than any table.
const FAR: f64 = 10_000.0;

/// Where a point lies around a unit (RULINGS G13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// In the 45-degree front arc (its rays included).
    Front,
    /// Between the left 45-degree ray and the 90-degree line.
    LeftFlank,
    /// Between the right 45-degree ray and the 90-degree line.
    RightFlank,
    /// On or behind the 90-degree line.
    Rear,
}

/// The front arc as a polygon (its rays drawn 10,000" long), widened by
/// [`MEASURE_PRECISION`] so that whatever lies on a ray is inside it.
pub fn front_arc(body: &Body) -> Polygon<f64> {
    let (w, e) = (body.half_width(), MEASURE_PRECISION);
    let frame = body.frame();
    let ring = vec![
        frame.to_table(-w, -e),
        frame.to_table(w, -e),
        frame.to_table(w + FAR + e, FAR),
        frame.to_table(-w - FAR - e, FAR),
        frame.to_table(-w, -e),
    ];
    Polygon::new(LineString::from(ring), vec![])
}

/// The stands of `target` (indices into [`Body::stands`]) with any part in the firer's front
/// arc, touching its rays included (Ch16 4.5, RULE-05-1.4, RULINGS G13).
pub fn stands_in_front_arc(firer: &Body, target: &Body) -> Vec<usize> {
    let arc = front_arc(firer);
    target.stands().iter().enumerate().filter(|(_, stand)| arc.intersects(*stand)).map(|(i, _)| i).collect()
}

/// Whether any stand of `target` is in the firer's front arc (RULE-05-1.2: a unit may fire only
/// at an enemy in it).
pub fn in_front_arc(firer: &Body, target: &Body) -> bool {
    let arc = front_arc(firer);
    target.stands().iter().any(|stand| arc.intersects(stand))
}

/// The zone around `body` a point lies in.
pub fn zone_of(body: &Body, point: Point<f64>) -> Zone {
    let (across, ahead) = body.frame().to_local(point.0);
    let (w, e) = (body.half_width(), MEASURE_PRECISION);
    if ahead >= -e && ahead >= across.abs() - w - e {
        Zone::Front
    } else if ahead <= e {
        Zone::Rear
    } else if across < 0.0 {
        Zone::LeftFlank
    } else {
        Zone::RightFlank
    }
}

/// Whether a whole shape lies on or behind `body`'s 90-degree line (its front edge extended).
fn wholly_behind(body: &Body, shape: &Polygon<f64>) -> bool {
    let frame = body.frame();
    shape.exterior_coords_iter().all(|c: Coord<f64>| frame.to_local(c).1 <= MEASURE_PRECISION)
}

/// Whether every stand of `body` lies wholly on or behind `target`'s 90-degree line (Ch15 4.0:
/// the attacker "entirely behind" it; dotc D50 `behind_line`). A stand flush against the line
/// counts as behind it; one that straddles it does not.
pub fn entirely_behind_line(target: &Body, body: &Body) -> bool {
    body.stands().iter().all(|stand| wholly_behind(target, stand))
}

/// The firing stands (front rank) of `firer` wholly on or behind `target`'s 90-degree line
/// (RULE-05-1.5). A stand flush against the line counts as behind it; one that straddles it
/// does not.
pub fn stands_behind_line(target: &Body, firer: &Body) -> Vec<usize> {
    let stands = firer.stands();
    firer.front_rank().filter(|&i| wholly_behind(target, &stands[i])).collect()
}

/// The enfilade test of one volley.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnfiladeTest {
    /// The firer's firing stands (its front rank).
    pub firing: u32,
    /// How many of them are wholly on or behind the target's 90-degree line.
    pub behind: u32,
    /// The ruling it was judged under.
    pub ruling: Enfilade,
    /// Whether the fire counts as enfilade (+1 to hit, frontal-obstacle light saves lost).
    pub enfilade: bool,
}

/// Whether `firer` enfilades `target` (RULE-05-1.5, Ch16 4.5, RULINGS C15): every firing stand
/// behind the target's 90-degree line ([`Enfilade::EntirelyBehind`]), or more than half of them
/// ([`Enfilade::MajorityBehind`]).
pub fn enfilade(firer: &Body, target: &Body, ruling: Enfilade) -> EnfiladeTest {
    let firing = firer.front_rank().len() as u32;
    let behind = stands_behind_line(target, firer).len() as u32;
    let enfilade = firing > 0
        && match ruling {
            Enfilade::EntirelyBehind => behind == firing,
            Enfilade::MajorityBehind => 2 * behind > firing,
        };
    EnfiladeTest { firing, behind, ruling, enfilade }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Layout;

    fn line(position: (f64, f64), facing: f64, stands: u32) -> Body {
        Body::new(position, facing, Layout::new(stands, None, 0.0, 1.0))
    }

    #[test]
    fn a_target_exactly_on_the_45_degree_ray_is_in_the_arc() {
        // Firer: 2 stands facing north at (0, 0); front corners (-1, 0) and (1, 0). The right
        // ray runs from (1, 0) through (5, 4). A one-stand target facing north at (5.5, 4)
        // covers x = 5..6, y = 3.25..4: its front-left corner (5, 4) is on the ray and the rest
        // lies outside, in the right flank zone. On the ray counts: it is in the arc.
        let firer = line((0.0, 0.0), 0.0, 2);
        let on_ray = line((5.5, 4.0), 0.0, 1);
        assert_eq!(stands_in_front_arc(&firer, &on_ray), vec![0]);
        assert!(in_front_arc(&firer, &on_ray));
        // 0.01" further east it is out.
        assert!(!in_front_arc(&firer, &line((5.51, 4.0), 0.0, 1)));
        assert_eq!(zone_of(&firer, Point::new(5.0, 4.0)), Zone::Front);
        assert_eq!(zone_of(&firer, Point::new(5.01, 4.0)), Zone::RightFlank);
    }

    #[test]
    fn the_arc_turns_with_the_unit() {
        // The same firer facing east at (0, 0): its front edge runs from (0, 1) (left) to
        // (0, -1) (right); the right ray runs from (0, -1) through (4, -5).
        let firer = line((0.0, 0.0), 90.0, 2);
        assert_eq!(zone_of(&firer, Point::new(4.0, -5.0)), Zone::Front);
        assert_eq!(zone_of(&firer, Point::new(4.0, -5.01)), Zone::RightFlank);
        assert_eq!(zone_of(&firer, Point::new(4.0, 5.0)), Zone::Front);
        assert_eq!(zone_of(&firer, Point::new(3.99, 5.0)), Zone::LeftFlank);
    }

    #[test]
    fn flank_zones_run_to_the_90_degree_line_and_the_rear_lies_behind_it() {
        // A 4-stand line facing north at (0, 0): front corners (-2, 0) and (2, 0).
        let body = line((0.0, 0.0), 0.0, 4);
        assert_eq!(zone_of(&body, Point::new(0.0, 5.0)), Zone::Front);
        assert_eq!(zone_of(&body, Point::new(-2.0, 0.0)), Zone::Front); // the corner itself
        assert_eq!(zone_of(&body, Point::new(-6.0, 3.0)), Zone::LeftFlank); // 45-90 degrees
        assert_eq!(zone_of(&body, Point::new(6.0, 0.5)), Zone::RightFlank);
        assert_eq!(zone_of(&body, Point::new(6.0, 0.0)), Zone::Rear); // on the 90-degree line
        assert_eq!(zone_of(&body, Point::new(6.0, -0.5)), Zone::Rear);
        assert_eq!(zone_of(&body, Point::new(0.0, -3.0)), Zone::Rear);
    }

    #[test]
    fn a_firer_half_in_the_enfilade_zone_does_not_enfilade() {
        // Target: 4-stand line facing north at (0, 0); its 90-degree line is y = 0.
        // Firer: 4-stand line facing west at (10, 0): front edge x = 10 from y = -2 (its left,
        // south) to y = 2 (its right). Stands 0 (y = -2..-1) and 1 (y = -1..0, flush on the
        // line) are wholly behind it; stands 2 and 3 (y = 0..2) are in front. 2 of 4: not all,
        // not more than half, so no enfilade under either setting of C15.
        let target = line((0.0, 0.0), 0.0, 4);
        let firer = line((10.0, 0.0), 270.0, 4);
        assert_eq!(stands_behind_line(&target, &firer), vec![0, 1]);
        for ruling in [Enfilade::EntirelyBehind, Enfilade::MajorityBehind] {
            let test = enfilade(&firer, &target, ruling);
            assert_eq!((test.firing, test.behind, test.enfilade), (4, 2, false), "{ruling:?}");
        }
    }

    #[test]
    fn dotc_d50_a_body_is_entirely_behind_the_line_only_when_every_stand_is() {
        // Ch15 4.0, dotc D50 `behind_line`: every stand, not only the front rank. Target: 4-stand
        // line facing north at (0, 0), its 90-degree line y = 0. A 2-stand line facing west at
        // (10, -0.5) has its stands at y = -1.5..0.5 (it straddles the line); at (10, -1) they
        // run y = -2..0, the northern one flush on the line.
        let target = line((0.0, 0.0), 0.0, 4);
        assert!(!entirely_behind_line(&target, &line((10.0, -0.5), 270.0, 2)));
        assert!(entirely_behind_line(&target, &line((10.0, -1.0), 270.0, 2)));
        // A line facing north behind the target's rear: wholly behind.
        assert!(entirely_behind_line(&target, &line((0.0, -6.0), 0.0, 5)));
        // The 45-90 degree flank zone, straddling nothing but ahead of the line: not behind.
        assert!(!entirely_behind_line(&target, &line((-8.0, 4.0), 90.0, 2)));
    }

    #[test]
    fn three_of_five_behind_is_enfilade_only_by_majority() {
        // Firer: 5-stand line facing west at (10, -0.5): stands y = -3..-2, -2..-1, -1..0 are
        // behind the target's line y = 0; y = 0..1 and 1..2 are in front of it. 3 of 5.
        let target = line((0.0, 0.0), 0.0, 4);
        let firer = line((10.0, -0.5), 270.0, 5);
        let entirely = enfilade(&firer, &target, Enfilade::EntirelyBehind);
        let majority = enfilade(&firer, &target, Enfilade::MajorityBehind);
        assert_eq!((entirely.behind, entirely.enfilade), (3, false));
        assert_eq!((majority.behind, majority.enfilade), (3, true));
        // Moved 2.5" south every stand is behind: enfilade under both.
        let firer = line((10.0, -3.0), 270.0, 5);
        assert!(enfilade(&firer, &target, Enfilade::EntirelyBehind).enfilade);
        assert!(enfilade(&firer, &target, Enfilade::MajorityBehind).enfilade);
    }

    #[test]
    fn a_column_counts_only_its_front_rank() {
        // An assault column of 6 (2 across) facing west at (10, -2): front stands y = -3..-2
        // and -2..-1, both behind the line y = 0 of the target; the rear ranks do not fire.
        let target = line((0.0, 0.0), 0.0, 4);
        let column = Body::new((10.0, -2.0), 270.0, Layout::new(6, Some(2), 0.0, 1.0));
        let test = enfilade(&column, &target, Enfilade::EntirelyBehind);
        assert_eq!((test.firing, test.behind, test.enfilade), (2, 2, true));
    }
}
