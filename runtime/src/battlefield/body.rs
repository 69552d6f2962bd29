//! Where a unit's stands lie on the table.
//!
//! A unit's position is the centre of its front edge, which is where its Color Stand's front
//! centre is (RULE-05-1.4; for a battery, the midpoint of its guns' front, RULINGS G4). Stands
//! are 1" wide and [`STAND_DEPTH`] deep, laid out by formation (Ch16 3.2): a line in one rank,
//! an assault column two across, a road column one across, open order and skirmishers with the
//! formation's `stand_gap` between stands. The layout is centred on the position, so with an
//! even frontage the colours are at the joint of the two middle stands: the unit still dresses
//! on them, and range is still measured from the centre of the front.

use dotc_lang::ast::{Unit, UnitKind};
use dotc_lang::check::men_to_stands;
use dotc_lang::library::RuleData;
use geo::{Line, Point, Polygon};

use crate::engine::tables::Tables;
use crate::geometry::{Frame, Layout, STAND_DEPTH, footprint, stand_rectangles};

/// A unit on the table: where it stands, which way it faces, and how its stands are laid out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Body {
    /// The centre of the Color Stand's front edge (RULE-05-1.4), in inches.
    pub position: (f64, f64),
    /// Compass bearing of its front: 0 = north, 90 = east.
    pub facing: f64,
    pub layout: Layout,
}

impl Body {
    pub fn new(position: (f64, f64), facing: f64, layout: Layout) -> Body {
        Body { position, facing, layout }
    }

    /// The body of a unit as a scenario declares it, if it has a position, a facing and a
    /// strength: stands, or men at the scenario's `men_per_stand`, or a battery's sections.
    /// The formation is the first of its words that is a formation in the rule data; without
    /// one (a battery, mounted cavalry) every stand is in the front rank. A unit off the table
    /// at the start, a facing that is neither a number nor a compass word, a strength outside
    /// 1..=1000 or a position or facing that is not a finite number gives None: the language
    /// checks report those.
    pub fn from_unit(
        unit: &Unit,
        data: &RuleData,
        tables: &Tables,
        men_per_stand: Option<u32>,
    ) -> Option<Body> {
        let position = unit.position.as_ref()?.value;
        let facing = unit.facing.as_ref()?.value.degrees()?;
        let stands = match (unit.kind, &unit.sections, &unit.stands, &unit.men, men_per_stand) {
            (UnitKind::Battery, Some(s), _, _, _) => s.value,
            (_, _, Some(s), _, _) => s.value,
            (_, _, None, Some(m), Some(per)) if per > 0 => men_to_stands(m.value, per),
            _ => return None,
        };
        let finite = position.x.is_finite() && position.y.is_finite() && facing.is_finite();
        if !finite || !(1.0..=1000.0).contains(&stands) {
            return None;
        }
        let formation = unit.words.iter().find_map(|w| data.formation(&w.value));
        let (frontage, gap) = match formation {
            Some(f) => (f.frontage_stands(), f.gap_inches()),
            None => (None, 0.0),
        };
        let layout = Layout::new(stands as u32, frontage, gap, tables.stand_width);
        Some(Body::new((position.x, position.y), facing, layout))
    }

    /// The farthest any point of the unit's stands lies from its position: every stand is
    /// within half the layout's width across and its depth behind the front centre (the front
    /// rank is the widest), and the frame the stands are placed in is a rotation, so this bounds
    /// the unit whichever way it faces. With a little room for rounding (1e-6"), far above the
    /// error of placing a corner. For rejecting pairs of units too far apart to touch before
    /// any stand is built ([`super::contact::may_touch`]).
    pub fn reach(&self) -> f64 {
        let (half, depth) = (self.layout.width() / 2.0, self.layout.depth());
        (half * half + depth * depth).sqrt() + 1e-6
    }

    /// Whether `line` could pass over any of the unit's stands: false when the whole line keeps
    /// farther from the unit's position than its [`Body::reach`], which spares building the
    /// footprint for every friend a line of sight might cross.
    pub fn may_cross(&self, line: &Line<f64>) -> bool {
        use geo::Distance as _;
        let centre = Point::new(self.position.0, self.position.1);
        geo::Euclidean.distance(&centre, line) <= self.reach() + crate::geometry::MEASURE_PRECISION
    }

    /// Stands in the unit.
    pub fn stand_count(&self) -> u32 {
        self.layout.stands
    }

    /// Each stand's rectangle: front rank first, left to right as the unit faces.
    pub fn stands(&self) -> Vec<Polygon<f64>> {
        stand_rectangles(self.position, self.facing, self.layout)
    }

    /// The indices (into [`Body::stands`]) of the front rank, left to right. Every formation's
    /// firing stands are in it (Ch16 3.2: a line fires all, a column its front two).
    pub fn front_rank(&self) -> std::ops::Range<usize> {
        0..self.layout.across.min(self.layout.stands) as usize
    }

    /// The centre of the front edge of stand `index`.
    pub fn stand_front_centre(&self, index: usize) -> Point<f64> {
        let (left, back) = self.layout.slot(index as u32);
        Point::from(self.frame().to_table(left + 0.5, -back))
    }

    /// The unit's own axes: origin at the front centre, ahead along its facing.
    pub fn frame(&self) -> Frame {
        Frame::new(self.position, self.facing)
    }

    /// The front edge, from the front-left corner to the front-right corner.
    pub fn front_edge(&self) -> Line<f64> {
        let half = self.layout.width() / 2.0;
        let frame = self.frame();
        Line::new(frame.to_table(-half, 0.0), frame.to_table(half, 0.0))
    }

    /// Where range is measured from: the centre of the Color Stand's front edge, or of a
    /// battery's front (RULE-05-1.4, RULINGS G4).
    pub fn colours(&self) -> Point<f64> {
        Point::new(self.position.0, self.position.1)
    }

    /// The rectangle around all its stands (gaps included).
    pub fn footprint(&self) -> Polygon<f64> {
        footprint(self.position, self.facing, self.layout)
    }

    /// Half the frontage, inches.
    pub fn half_width(&self) -> f64 {
        self.layout.width() / 2.0
    }

    /// Depth from the front edge to the back of the last rank, inches.
    pub fn depth(&self) -> f64 {
        self.layout.ranks as f64 * STAND_DEPTH
    }

    /// The same unit with `remaining` stands (at least 1, at most what it has): RULE-05-3.3 takes stands from the
    /// outer flanks and keeps the Color Stand, so the front shrinks toward the colours and stays
    /// centred on the same point.
    pub fn with_stands(&self, remaining: u32) -> Body {
        Body { layout: self.layout.shrunk(remaining), ..*self }
    }

    /// The same unit after losing `lost` stands (never fewer than 1 left).
    pub fn with_losses(&self, lost: u32) -> Body {
        self.with_stands(self.layout.stands.saturating_sub(lost))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use geo::{Area, BoundingRect};

    fn bounds(p: &Polygon<f64>) -> (f64, f64, f64, f64) {
        let r = p.bounding_rect().unwrap();
        (r.min().x, r.max().x, r.min().y, r.max().y)
    }

    #[test]
    fn a_line_lays_its_stands_left_to_right_behind_the_front_edge() {
        // Facing north at (10, 10), 5 stands: the front edge runs from x = 7.5 to 12.5 at y = 10,
        // stand 0 is the westmost (the unit's left) and every stand lies between y = 9.25 and 10.
        let body = Body::new((10.0, 10.0), 0.0, Layout::new(5, None, 0.0, 1.0));
        let stands = body.stands();
        assert_eq!(stands.len(), 5);
        assert_eq!(bounds(&stands[0]), (7.5, 8.5, 9.25, 10.0));
        assert_eq!(bounds(&stands[4]), (11.5, 12.5, 9.25, 10.0));
        assert_eq!(body.front_rank(), 0..5);
        let edge = body.front_edge();
        assert_eq!((edge.start.x, edge.start.y, edge.end.x, edge.end.y), (7.5, 10.0, 12.5, 10.0));
        assert_eq!(body.stand_front_centre(2), Point::new(10.0, 10.0));
    }

    #[test]
    fn facing_east_the_left_is_north() {
        // Facing east at (0, 0): the front edge runs north-south at x = 0, the unit lies west of
        // it, and stand 0 (its left) is the northmost.
        let body = Body::new((0.0, 0.0), 90.0, Layout::new(3, None, 0.0, 1.0));
        let stands = body.stands();
        assert_eq!(bounds(&stands[0]), (-0.75, 0.0, 0.5, 1.5));
        assert_eq!(bounds(&stands[2]), (-0.75, 0.0, -1.5, -0.5));
    }

    #[test]
    fn an_assault_column_is_two_across_with_a_short_rank_centred() {
        // 5 stands, 2 across: ranks of 2, 2 and 1; the last stand sits centred behind.
        let body = Body::new((0.0, 0.0), 0.0, Layout::new(5, Some(2), 0.0, 1.0));
        let stands = body.stands();
        assert_eq!(body.front_rank(), 0..2);
        assert_eq!(bounds(&stands[0]), (-1.0, 0.0, -0.75, 0.0));
        assert_eq!(bounds(&stands[3]), (0.0, 1.0, -1.5, -0.75));
        assert_eq!(bounds(&stands[4]), (-0.5, 0.5, -2.25, -1.5));
    }

    #[test]
    fn open_order_leaves_gaps_between_stands() {
        // 3 stands with 1" gaps: 5" wide, stands at x = -2.5..-1.5, -0.5..0.5, 1.5..2.5.
        let body = Body::new((0.0, 0.0), 0.0, Layout::new(3, None, 1.0, 1.0));
        let stands = body.stands();
        assert_eq!(body.layout.width(), 5.0);
        assert_eq!(bounds(&stands[0]).0, -2.5);
        assert_eq!(bounds(&stands[1]).0, -0.5);
        assert_eq!(bounds(&stands[2]).0, 1.5);
    }

    #[test]
    fn losses_shrink_the_front_toward_the_colours() {
        // RULE-05-3.3: a 5-stand line losing 2 is a 3-stand line on the same centre; a 6-stand
        // column losing 2 keeps 2 across and loses a rank.
        let line = Body::new((10.0, 10.0), 0.0, Layout::new(5, None, 0.0, 1.0)).with_losses(2);
        assert_eq!((line.layout.across, line.layout.ranks, line.stand_count()), (3, 1, 3));
        assert_eq!(line.position, (10.0, 10.0));
        let edge = line.front_edge();
        assert_eq!((edge.start.x, edge.end.x), (8.5, 11.5));
        let column = Body::new((0.0, 0.0), 0.0, Layout::new(6, Some(2), 0.0, 1.0)).with_losses(2);
        assert_eq!((column.layout.across, column.layout.ranks), (2, 2));
        assert_eq!(
            Body::new((0.0, 0.0), 0.0, Layout::new(2, None, 0.0, 1.0)).with_losses(5).stand_count(),
            1
        );
        let area: f64 = line.stands().iter().map(|s| s.unsigned_area()).sum();
        assert!((area - 3.0 * STAND_DEPTH).abs() < 1e-9);
    }
}
