//! The second line of battle (Ch13 19.0, module `second_line`; dotc D11 for the geometry).

use geo::{Intersects as _, Line};

use super::body::Body;

/// Whether `friend` stands in second line behind `unit`: some stand of it lies on the unit's
/// centre line between the back of its last rank and `behind` inches farther back (dotc D11:
/// "directly behind the center" read as straight back from the centre of the rear edge; a
/// stand touching the line at exactly `behind` counts, as ranges do, RULINGS G4). Whether the
/// friend is formed and steady is the caller's to say.
pub fn supports(unit: &Body, friend: &Body, behind: f64) -> bool {
    let frame = unit.frame();
    let back = unit.depth();
    let line = Line::new(frame.to_table(0.0, -back), frame.to_table(0.0, -back - behind));
    friend.may_cross(&line) && friend.stands().iter().any(|stand| stand.intersects(&line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Layout, STAND_DEPTH};

    fn line_at(x: f64, y: f64, facing: f64) -> Body {
        Body::new((x, y), facing, Layout::new(5, None, 0.0, 1.0))
    }

    #[test]
    fn ch13_19_0_a_friend_within_3_inches_straight_behind_supports() {
        // A line facing south with its front on y = 14: its rear edge is at 14 + 0.75.
        let front = line_at(15.0, 14.0, 180.0);
        let rear = 14.0 + STAND_DEPTH;
        // 2" behind the rear edge, centred: supports.
        assert!(supports(&front, &line_at(15.0, rear + 2.0, 180.0), 3.0));
        // Exactly 3" behind: still (G4's boundary).
        assert!(supports(&front, &line_at(15.0, rear + 3.0, 180.0), 3.0));
        // 3.5" behind: too far.
        assert!(!supports(&front, &line_at(15.0, rear + 3.5, 180.0), 3.0));
        // Off to the side, clear of the centre line (a 5-stand line is 5" wide): no.
        assert!(!supports(&front, &line_at(21.0, rear + 2.0, 180.0), 3.0));
        // Overlapping the centre line with its flank stand: yes.
        assert!(supports(&front, &line_at(17.0, rear + 2.0, 180.0), 3.0));
        // In front of it, not behind: no.
        assert!(!supports(&front, &line_at(15.0, 10.0, 180.0), 3.0));
    }
}
