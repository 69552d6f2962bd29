//! Where a melee loser's retreat ends when a friendly unit is in the way: dotc D48
//! (`docs/rulings.md`), on Ch16 7.4 ("Retreats 6.0" directly backward") and Ch16 3.3 (Passage of
//! Lines).
//!
//! Everything is worked in the retreating unit's own frame at its start: `across` to its right,
//! `back` straight to its rear. Its footprint `back` inches back covers `|across| <= w/2` and
//! `-back - depth <= ahead <= -back`. A friend's footprint is convex, so the distances back at
//! which the two share ground are one open interval, and so are the sideways shifts at a given
//! distance back; the answers below are the ends of those intervals. Touching is not sharing
//! ground (as [`super::Survey`] judges a move's end), so each answer leaves the unit in contact.

use geo::{BooleanOps, BoundingRect, Coord, LineString, Polygon};

use super::{AREA_NOISE, Pose};
use crate::battlefield::body::Body;
use crate::rulings::BlockedRetreat;

/// How far inside an interval's ends a distance must be to count as inside it (inches): a
/// hairline, so an answer that touches a friend is not taken for one that enters it.
const INSIDE: f64 = 1e-6;

/// Half the width of the band every answer is clipped with, far beyond any table (inches).
const FAR: f64 = 1.0e4;

/// Where a blocked retreat may end (dotc D48), and which friends block its spot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockedEnd {
    /// The poses it may end in: one, or for `sidestep` both shifts when the two sides are
    /// equally near. Empty when nothing blocks it.
    pub ends: Vec<Pose>,
    /// The friends ([`super::Move::friends`] indices) on the spot `required` back: a unit that
    /// sidesteps them does not pass through them.
    pub blocking: Vec<usize>,
}

/// Where a retreat of `required` inches straight back from `start` ends under the ruling when
/// `friends` are in the way (dotc D48); no ends when they are not: the spot `required` back is
/// clear (`pass_through`, `sidestep`) or the way to it is (`stop_short`).
pub fn blocked_retreat_ends(
    start: &Body,
    required: f64,
    friends: &[Body],
    ruling: BlockedRetreat,
) -> BlockedEnd {
    let ends = ends(start, required, friends, ruling);
    if ends.is_empty() {
        return BlockedEnd::default();
    }
    let half = start.layout.width() / 2.0;
    let depth = start.layout.depth();
    let blocking = friends
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            extent(&in_frame(start, f), Band::Across(half))
                .is_some_and(|(low, high)| required > -high - depth + INSIDE && required < -low - INSIDE)
        })
        .map(|(i, _)| i)
        .collect();
    BlockedEnd { ends, blocking }
}

fn ends(start: &Body, required: f64, friends: &[Body], ruling: BlockedRetreat) -> Vec<Pose> {
    if !required.is_finite() || required < 0.0 {
        return Vec::new();
    }
    let half = start.layout.width() / 2.0;
    let depth = start.layout.depth();
    let local: Vec<Polygon<f64>> = friends.iter().map(|f| in_frame(start, f)).collect();
    // The distances back at which each friend shares ground with the unit.
    let along: Vec<(f64, f64)> = local
        .iter()
        .filter_map(|p| extent(p, Band::Across(half)).map(|(low, high)| (-high - depth, -low)))
        .collect();
    let inside =
        |b: f64, spans: &[(f64, f64)]| spans.iter().any(|&(lo, hi)| b > lo + INSIDE && b < hi - INSIDE);
    let end_blocked = inside(required, &along);
    let pose = |across: f64, back: f64| {
        let p = start.frame().to_table(across, -back);
        Pose::new((p.x, p.y), start.facing)
    };
    match ruling {
        BlockedRetreat::PassThrough if end_blocked => {
            // The first distance at or beyond `required` clear of every friend: one of the far
            // ends of the intervals.
            let back = along
                .iter()
                .map(|&(_, hi)| hi)
                .filter(|&hi| hi >= required && !inside(hi, &along))
                .fold(f64::INFINITY, f64::min);
            if back.is_finite() { vec![pose(0.0, back)] } else { Vec::new() }
        }
        BlockedRetreat::Sidestep if end_blocked => {
            // The sideways shifts at `required` back that share ground with each friend.
            let band = Band::Ahead(-required - depth, -required);
            let shifts: Vec<(f64, f64)> =
                local.iter().filter_map(|p| extent(p, band)).map(|(lo, hi)| (lo - half, hi + half)).collect();
            let candidates = shifts.iter().flat_map(|&(lo, hi)| [lo, hi]).filter(|&s| !inside(s, &shifts));
            let least = candidates.clone().map(f64::abs).fold(f64::INFINITY, f64::min);
            if !least.is_finite() {
                return Vec::new();
            }
            let mut ends: Vec<f64> = candidates.filter(|s| (s.abs() - least).abs() <= INSIDE).collect();
            ends.sort_by(f64::total_cmp);
            ends.dedup_by(|a, b| (*a - *b).abs() <= INSIDE);
            ends.into_iter().map(|s| pose(s, required)).collect()
        }
        BlockedRetreat::StopShort => {
            // The first friend met on the way back: the nearest start of an interval that lies
            // between where the unit stands and `required`.
            let first = along
                .iter()
                .filter(|&&(lo, hi)| lo < required - INSIDE && hi > INSIDE)
                .map(|&(lo, _)| lo.max(0.0))
                .fold(f64::INFINITY, f64::min);
            if first.is_finite() { vec![pose(0.0, first)] } else { Vec::new() }
        }
        _ => Vec::new(),
    }
}

/// A band of the unit's frame: every point within `half` across of its centre line, or between
/// two distances ahead.
#[derive(Clone, Copy)]
enum Band {
    Across(f64),
    Ahead(f64, f64),
}

/// A friend's footprint in the frame of the unit at its start.
fn in_frame(start: &Body, friend: &Body) -> Polygon<f64> {
    let frame = start.frame();
    let ring: Vec<Coord<f64>> = friend
        .footprint()
        .exterior()
        .coords()
        .map(|&c| {
            let (across, ahead) = frame.to_local(c);
            Coord { x: across, y: ahead }
        })
        .collect();
    Polygon::new(LineString::from(ring), vec![])
}

/// The extent of the part of `shape` within the band, as (least, most) of the other axis (ahead
/// for [`Band::Across`], across for [`Band::Ahead`]), or nothing when that part has no area.
fn extent(shape: &Polygon<f64>, band: Band) -> Option<(f64, f64)> {
    let (x0, x1, y0, y1) = match band {
        Band::Across(half) => (-half, half, -FAR, FAR),
        Band::Ahead(back, front) => (-FAR, FAR, back, front),
    };
    let rect = Polygon::new(LineString::from(vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]), vec![]);
    let part = shape.intersection(&rect);
    if geo::Area::unsigned_area(&part) <= AREA_NOISE {
        return None;
    }
    let bounds = part.bounding_rect()?;
    Some(match band {
        Band::Across(_) => (bounds.min().y, bounds.max().y),
        Band::Ahead(..) => (bounds.min().x, bounds.max().x),
    })
}
