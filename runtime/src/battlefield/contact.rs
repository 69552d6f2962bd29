//! Contact between units and the engaged stands of a melee: RULINGS G3 (Ch16 7.3, Ch8 6.0).
//!
//! Two stands are **in contact** when they touch or lie within [`CONTACT_TOLERANCE`] (0.05") of
//! each other: bases pushed together on a real table leave hairline gaps, and 0.05" is well
//! under anything the rules measure. A corner touching a corner is contact. Two units are in
//! contact when any of their stands are.
//!
//! A stand is **engaged** (RULINGS G3) when it is in *edge* contact with an enemy stand: within
//! the tolerance along more than [`EDGE_CONTACT_MIN`] (a quarter inch) of its edge. A corner
//! grazing a corner or an edge is contact but engages nobody, so a column whose front is centred
//! on the joint of two stands of a line engages exactly those two, not their neighbours whose
//! corners it touches. From that one rule: a column hitting a line frontally engages its 2 front
//! stands; the line engages the stands touching the column's front (2 on a joint, 3 when the
//! column is centred on a stand, as each of them touches it along half an inch or more); a flank
//! attack engages only the stands it touches. A battery counts 1 however many sections touch
//! (Ch8 6.0, the stdlib's `battery_in_melee`).

use geo::{Buffer, Distance, Euclidean, Length, MultiLineString, Polygon};

use super::body::Body;
use crate::geometry::measured;

pub use super::tolerances::{CONTACT_TOLERANCE, EDGE_CONTACT_MIN};

/// Whether two stands touch, within [`CONTACT_TOLERANCE`] (compared at
/// [`crate::geometry::MEASURE_PRECISION`]).
pub fn stands_touch(a: &Polygon<f64>, b: &Polygon<f64>) -> bool {
    measured(Euclidean.distance(a, b)) <= CONTACT_TOLERANCE
}

/// How much of `a`'s edge lies within [`CONTACT_TOLERANCE`] of `b`, inches.
pub fn shared_edge(a: &Polygon<f64>, b: &Polygon<f64>) -> f64 {
    if !stands_touch(a, b) {
        return 0.0;
    }
    let near_b = b.buffer(CONTACT_TOLERANCE);
    let edge = MultiLineString::new(vec![a.exterior().clone()]);
    Euclidean.length(&geo::BooleanOps::clip(&near_b, &edge, false))
}

/// Whether two stands are in edge contact (RULINGS G3).
pub fn edge_contact(a: &Polygon<f64>, b: &Polygon<f64>) -> bool {
    shared_edge(a, b) > EDGE_CONTACT_MIN
}

/// Whether two units could be in contact at all: their positions are no farther apart than
/// their [`Body::reach`]es and the tolerance. False means no stand of one touches a stand of
/// the other, so the exact test of every pair of stands is skipped; it is what keeps contact
/// cheap when a replay asks of every unit on the table whether it is in melee (issue 16).
pub fn may_touch(a: &Body, b: &Body) -> bool {
    may_be_within(a, b, CONTACT_TOLERANCE)
}

/// Whether some stand of `a` could be within `gap` inches of some stand of `b`: false means
/// every pair of stands is farther apart, decided from the positions and [`Body::reach`]es alone
/// (no stand corner is farther than its reach from its unit's position).
pub fn may_be_within(a: &Body, b: &Body, gap: f64) -> bool {
    // Compared squared (both sides are non-negative), so no root is taken for the pairs the
    // test rejects, which are nearly all of them.
    let (dx, dy) = (a.position.0 - b.position.0, a.position.1 - b.position.1);
    let bound = a.reach() + b.reach() + gap + crate::geometry::MEASURE_PRECISION;
    dx * dx + dy * dy <= bound * bound
}

/// Whether two units are in contact: any stand of one touches any stand of the other.
pub fn in_contact(a: &Body, b: &Body) -> bool {
    if !may_touch(a, b) {
        return false;
    }
    let theirs = b.stands();
    a.stands().iter().any(|mine| theirs.iter().any(|other| stands_touch(mine, other)))
}

/// The stands of `unit` (indices into [`Body::stands`]) in edge contact with a stand of `enemy`.
pub fn stands_in_edge_contact(unit: &Body, enemy: &Body) -> Vec<usize> {
    if !may_touch(unit, enemy) {
        return Vec::new();
    }
    let theirs = enemy.stands();
    unit.stands()
        .iter()
        .enumerate()
        .filter(|(_, mine)| theirs.iter().any(|other| edge_contact(mine, other)))
        .map(|(i, _)| i)
        .collect()
}

/// Engaged stands of a regiment in a melee against `enemy` (RULINGS G3): its stands in edge
/// contact with an enemy stand. Each pair of units is counted on its own (G3: multi-unit melees
/// are resolved pair by pair).
pub fn engaged_stands(unit: &Body, enemy: &Body) -> u32 {
    stands_in_edge_contact(unit, enemy).len() as u32
}

/// Engaged stands of a battery against `enemy`: 1 if any of its sections is in edge contact,
/// however many (Ch8 6.0, RULINGS G3).
pub fn engaged_battery_stands(battery: &Body, enemy: &Body) -> u32 {
    engaged_stands(battery, enemy).min(1)
}

/// Where a charger moving straight ahead first meets its target's base (Ch15 4.0, Ch16 7.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meeting {
    /// On the target's front edge (a front corner included).
    Front,
    /// On a side or the rear of the target's base, clear of its front edge.
    SideOrRear,
    /// Its path straight ahead does not meet the target within the distance looked at.
    Nowhere,
}

/// Where `charger`, moving straight ahead along its facing at most `limit` inches, first comes
/// within [`CONTACT_TOLERANCE`] of `target`'s footprint (Ch15 4.0: a frontal charge must meet the
/// front edge flush; clipping the base's thickness from the side is not allowed). The distance
/// between two convex shapes, one moved along a line, is convex in how far it moves, so the
/// least distance is found by a ternary search and the first touch by halving before it.
pub fn first_meeting(charger: &Body, target: &Body, limit: f64) -> Meeting {
    use geo::Translate;
    let theirs = target.footprint();
    let mine = charger.footprint();
    let forward = charger.frame().to_table(0.0, 1.0);
    let (dx, dy) = (forward.x - charger.position.0, forward.y - charger.position.1);
    let moved = |t: f64| mine.translate(dx * t, dy * t);
    let gap = |t: f64| Euclidean.distance(&moved(t), &theirs);
    let touches = |t: f64| measured(gap(t)) <= CONTACT_TOLERANCE;
    if !limit.is_finite() || limit < 0.0 {
        return Meeting::Nowhere;
    }
    let at = if touches(0.0) {
        0.0
    } else {
        let (mut lo, mut hi) = (0.0, limit);
        for _ in 0..100 {
            let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if gap(a) <= gap(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        let nearest = (lo + hi) / 2.0;
        if !touches(nearest) {
            return Meeting::Nowhere;
        }
        let (mut far, mut near) = (0.0, nearest);
        for _ in 0..60 {
            let mid = (far + near) / 2.0;
            if touches(mid) {
                near = mid;
            } else {
                far = mid;
            }
        }
        near
    };
    // At the first touch, the charger touches the target's side or rear behind its front edge
    // (more than twice the tolerance behind it, so the front corners and the hairline before
    // the front edge are the front's), or only the front edge.
    let frame = target.frame();
    let (w, behind) = (target.half_width(), 2.0 * CONTACT_TOLERANCE);
    let back = -target.depth().max(behind);
    let rear = Polygon::new(
        geo::LineString::from(vec![
            frame.to_table(-w, -behind),
            frame.to_table(w, -behind),
            frame.to_table(w, back),
            frame.to_table(-w, back),
            frame.to_table(-w, -behind),
        ]),
        vec![],
    );
    if measured(Euclidean.distance(&moved(at), &rear)) <= CONTACT_TOLERANCE {
        Meeting::SideOrRear
    } else {
        Meeting::Front
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Layout;

    /// Ch15 4.0. The target, a 4-stand line facing south with its front edge on y = 0 from x =
    /// -2 to 2 and its base 1" deep to y = 1. A 4-stand line 6" south facing north meets the
    /// front edge; moved east so only its left end overlaps the target's frontage, still the
    /// front. A stand coming in from the east, facing west, level with the base's thickness (y =
    /// 0.25 to 1.25), clips the side: the east end of the base, clear of the front edge. Facing
    /// north 3" east of the target a line meets nothing.
    #[test]
    fn ch15_4_0_a_charge_meets_the_front_edge_or_clips_the_side() {
        let target = line((0.0, 0.0), 180.0, 4);
        assert_eq!(first_meeting(&line((0.0, -6.0), 0.0, 4), &target, 9.0), Meeting::Front);
        assert_eq!(first_meeting(&line((3.5, -6.0), 0.0, 4), &target, 9.0), Meeting::Front);
        assert_eq!(first_meeting(&line((5.0, 0.75), 270.0, 1), &target, 9.0), Meeting::SideOrRear);
        assert_eq!(first_meeting(&line((7.0, -6.0), 0.0, 4), &target, 9.0), Meeting::Nowhere);
        // Too far to get there in the distance looked at.
        assert_eq!(first_meeting(&line((0.0, -12.0), 0.0, 4), &target, 9.0), Meeting::Nowhere);
        // Already touching the front: met at once.
        assert_eq!(first_meeting(&line((0.0, 0.0), 0.0, 4), &target, 9.0), Meeting::Front);
        // Coming from the east facing west, overlapping the front edge's end by half an inch
        // (y = -0.5 to 1.5): its front strikes the whole side, front corner and all. Placed
        // level with the front (y = -1.5 to 0.5, the corner in the middle of its front), it
        // still strikes the side's first half inch: the base's thickness.
        assert_eq!(first_meeting(&line((5.0, 0.5), 270.0, 2), &target, 9.0), Meeting::SideOrRear);
        assert_eq!(first_meeting(&line((5.0, -0.5), 270.0, 2), &target, 9.0), Meeting::SideOrRear);
        // An oblique line whose corner meets the front corner first: the front.
        assert_eq!(first_meeting(&line((4.0, -4.0), 315.0, 2), &target, 9.0), Meeting::Front);
    }

    fn line(position: (f64, f64), facing: f64, stands: u32) -> Body {
        Body::new(position, facing, Layout::new(stands, None, 0.0, 1.0))
    }

    fn column(position: (f64, f64), facing: f64, stands: u32) -> Body {
        Body::new(position, facing, Layout::new(stands, Some(2), 0.0, 1.0))
    }

    #[test]
    fn fronts_touching_are_in_contact_within_the_tolerance() {
        // Two 4-stand lines facing each other: A faces north at (0, 0), B faces south with its
        // front edge on y = gap.
        let a = line((0.0, 0.0), 0.0, 4);
        assert!(in_contact(&a, &line((0.0, 0.0), 180.0, 4)));
        assert!(in_contact(&a, &line((0.0, 0.05), 180.0, 4)));
        assert!(!in_contact(&a, &line((0.0, 0.06), 180.0, 4)));
        assert_eq!(engaged_stands(&a, &line((0.0, 0.0), 180.0, 4)), 4);
    }

    #[test]
    fn the_tolerance_holds_at_any_angle() {
        // A proptest found this: a 1-stand unit facing north at (0, 0) and a 4-stand line facing
        // south with its front 0.05" away, both turned 283 degrees about (0, 44.18): the gap
        // comes out 0.05000000000000x and must still count as 0.05.
        let a = line((0.0, 0.0), 0.0, 1);
        let b = line((-2.2969806821563434, 0.05), 180.0, 4);
        assert!(in_contact(&a, &b));
        let turn = |body: &Body| {
            use geo::{Point, Rotate};
            let p = Point::new(body.position.0, body.position.1)
                .rotate_around_point(-283.03894434657275, Point::new(0.0, 44.18413819787395));
            Body { position: (p.x(), p.y()), facing: body.facing + 283.03894434657275, ..*body }
        };
        assert!(in_contact(&turn(&a), &turn(&b)));
    }

    #[test]
    fn corner_to_corner_is_contact_but_engages_nobody() {
        // A 1-stand unit facing north at (0, 0) covers x = -0.5..0.5, y = -0.75..0; another at
        // (1, 0.75) covers x = 0.5..1.5, y = 0..0.75: they share only the point (0.5, 0).
        let a = line((0.0, 0.0), 0.0, 1);
        let b = line((1.0, 0.75), 0.0, 1);
        assert!(in_contact(&a, &b));
        assert_eq!(engaged_stands(&a, &b), 0);
    }

    #[test]
    fn a_column_on_a_joint_engages_two_stands_of_the_line() {
        // Line: 5 stands facing north at (0, 0), stands x = -2.5..-1.5, ..., 1.5..2.5, front y = 0.
        // Column: 6 stands, 2 across, facing south with its front on y = 0, centred at x = -0.5,
        // so its front covers x = -1.5..0.5: exactly the stands x = -1.5..-0.5 and -0.5..0.5.
        // The stands either side touch it only at a corner. Column: its 2 front stands.
        let target = line((0.0, 0.0), 0.0, 5);
        let attacker = column((-0.5, 0.0), 180.0, 6);
        assert_eq!(stands_in_edge_contact(&target, &attacker), vec![1, 2]);
        assert_eq!(engaged_stands(&attacker, &target), 2);
        // Centred on a stand (x = 0), its front x = -1..1 covers half of stand 1, all of stand
        // 2 and half of stand 3: three stands touch the column's front.
        let centred = column((0.0, 0.0), 180.0, 6);
        assert_eq!(engaged_stands(&target, &centred), 3);
        assert_eq!(engaged_stands(&centred, &target), 2);
    }

    #[test]
    fn a_flank_attack_engages_only_the_stands_it_touches() {
        // Line facing north at (0, 0), 5 stands; its right flank is the edge x = 2.5,
        // y = -0.75..0. A 3-stand line facing west at (2.5, -0.375) has its front on that
        // edge: x = 2.5, y = -1.875..1.125. Only the line's stand 4 is touched; of the
        // attacker's stands only the middle one (y = -0.875..0.125) meets the flank edge (along
        // 0.75"); the others end 0.125" short of it, beyond the tolerance.
        let target = line((0.0, 0.0), 0.0, 5);
        let attacker = line((2.5, -0.375), 270.0, 3);
        assert_eq!(stands_in_edge_contact(&target, &attacker), vec![4]);
        assert_eq!(engaged_stands(&attacker, &target), 1);
    }

    proptest::proptest! {
        /// The quick rejection never changes an answer: for units placed anywhere near each
        /// other, in any formation and facing, `in_contact` and the edge contacts agree with
        /// the test of every pair of stands.
        #[test]
        fn rejecting_far_pairs_changes_no_answer(
            (ax, ay, af) in (-6.0..6.0f64, -6.0..6.0f64, 0.0..360.0f64),
            (bx, by, bf) in (-6.0..6.0f64, -6.0..6.0f64, 0.0..360.0f64),
            (a_stands, a_across, a_gap) in (1u32..9, 1u32..5, proptest::sample::select(vec![0.0, 0.5, 1.0])),
            (b_stands, b_across, b_gap) in (1u32..9, 1u32..5, proptest::sample::select(vec![0.0, 0.5, 1.0])),
        ) {
            let a = Body::new((ax, ay), af, Layout::new(a_stands, Some(a_across), a_gap, 1.0));
            let b = Body::new((bx, by), bf, Layout::new(b_stands, Some(b_across), b_gap, 1.0));
            let (mine, theirs) = (a.stands(), b.stands());
            let every_pair = mine.iter().any(|m| theirs.iter().any(|t| stands_touch(m, t)));
            proptest::prop_assert_eq!(in_contact(&a, &b), every_pair);
            if !may_touch(&a, &b) {
                proptest::prop_assert!(!every_pair);
                let edges = mine.iter().filter(|m| theirs.iter().any(|t| edge_contact(m, t))).count();
                proptest::prop_assert_eq!(edges, 0);
            }
            // Every corner of every stand is within the reach of its unit's position.
            for (body, stands) in [(&a, &mine), (&b, &theirs)] {
                for corner in stands.iter().flat_map(|s| s.exterior().coords()) {
                    let far = (corner.x - body.position.0).hypot(corner.y - body.position.1);
                    proptest::prop_assert!(far <= body.reach(), "{far} > {}", body.reach());
                }
            }
        }
    }

    #[test]
    fn units_far_apart_are_rejected_before_their_stands_are_built() {
        // Two 4-stand lines: reach is hypot(2, 0.75) each, so 4.27" plus the tolerance apart is
        // the most at which they may touch.
        let a = line((0.0, 0.0), 0.0, 4);
        assert!(may_touch(&a, &line((0.0, 4.0), 0.0, 4)));
        assert!(!may_touch(&a, &line((0.0, 4.4), 0.0, 4)));
        // Side by side, flank to flank, 4" apart: they touch along their flanks.
        assert!(in_contact(&a, &line((4.0, 0.0), 0.0, 4)));
        assert!(!in_contact(&a, &line((4.1, 0.0), 0.0, 4)));
    }

    #[test]
    fn a_battery_counts_one() {
        // Ch8 6.0: 3 sections facing north at (0, 0), charged frontally by a 5-stand line.
        let battery = line((0.0, 0.0), 0.0, 3);
        let attacker = line((0.0, 0.0), 180.0, 5);
        assert_eq!(engaged_stands(&battery, &attacker), 3);
        assert_eq!(engaged_battery_stands(&battery, &attacker), 1);
        assert_eq!(engaged_battery_stands(&battery, &line((0.0, 3.0), 180.0, 5)), 0);
    }
}
