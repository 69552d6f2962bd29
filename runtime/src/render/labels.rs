//! Where a map's labels go (issue 21: "labels placed without overlaps (leaders and objectives
//! too), every marker inside the frame").
//!
//! Every label the table draws is collected first ([`Label`]), with the thing it names
//! ([`Label::subject`]) and how much it matters ([`Rank`]). [`Placer::place`] then takes them
//! in that order and gives each the first of its candidate positions (where it was asked for,
//! then farther and farther off in eight directions, along its line first for a name written
//! along a road or stream) whose box overlaps no label placed before it and lies inside the
//! table's frame, preferring one that covers no stand, leader, marker or objective either. A
//! label set well away from its subject gets a thin leader line back to it. A name of terrain
//! that finds no room is left out; nothing else is.
//!
//! A label's box comes from its text, size, anchor and turn alone ([`text_width`], one
//! conservative estimate of DejaVu Sans, the map's font): the same for the ground's labels and
//! the forces', so labels drawn in separate layers (the HTML replay's page) do not overlap
//! either. Deterministic: the same labels in the same order give the same places.

use super::draw::P;

/// How much of its size a label's text reaches above its baseline and below it (DejaVu Sans:
/// ascenders 0.76, descenders 0.24).
const ASCENT: f64 = 0.78;
const DESCENT: f64 = 0.25;
/// The room kept clear around each label's box, inches (its white halo is 0.06 each side).
const PAD: f64 = 0.06;
/// How far a label goes to keep off the shapes drawn (stands, markers), inches: a name farther
/// from its unit than this would read worse than one over a corner of a stand.
const SHAPE_SEARCH: f64 = 2.3;
/// A label set farther than this from where it was asked for gets a leader line, inches.
const LEADER_FROM: f64 = 0.7;

/// The width of `text` at font size `size` (inches), at least what DejaVu Sans gives it: each
/// character's advance in ems, rounded up into a few classes.
pub fn text_width(text: &str, size: f64) -> f64 {
    text.chars().map(char_width).sum::<f64>() * size
}

/// A character's advance in DejaVu Sans, ems, rounded up.
fn char_width(c: char) -> f64 {
    match c {
        ' ' | '.' | ',' | ':' | ';' | '\'' | '\u{2019}' | '\u{2018}' | '|' | '\u{b7}' => 0.36,
        'i' | 'j' | 'l' | 'I' | 'J' | '!' => 0.31,
        '(' | ')' | '[' | ']' | 'f' | 't' | '-' => 0.42,
        'r' | '"' | '\u{2033}' | '\u{201c}' | '\u{201d}' => 0.48,
        'm' => 0.98,
        'w' => 0.83,
        'M' => 0.87,
        'W' | '\u{2014}' | '%' => 1.0,
        'A'..='Z' => 0.79,
        'a'..='z' | '0'..='9' => 0.64,
        _ => 0.85,
    }
}

/// How much a label matters: placed in this order, so a brigadier's name is placed before the
/// regiments' around him, and an objective's before the field it stands in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Rank {
    Objective,
    Arrival,
    Focus,
    Building,
    Leader,
    Unit,
    Blind,
    Badge,
    Hill,
    Area,
    Line,
}

impl Rank {
    /// A name of terrain: it may be left out when it finds no room.
    fn droppable(self) -> bool {
        matches!(self, Rank::Hill | Rank::Area | Rank::Line)
    }
}

/// A label to write once every shape is down.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Label {
    /// Where it asks to be: its baseline at the anchor.
    pub at: P,
    pub text: String,
    pub size: f64,
    pub anchor: &'static str,
    /// Degrees, clockwise on the page, about `at`.
    pub rotate: f64,
    pub colour: &'static str,
    pub rank: Rank,
    /// The thing it names: where it may go around it, and where a leader line runs to when it
    /// is set away from it.
    pub subject: Option<Subject>,
    /// Extra SVG attributes of its `<text>` (a badge's class and weight).
    pub bold: bool,
}

/// What a label names, on the page: its centre and half its width and depth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Subject {
    pub at: P,
    pub half: P,
}

impl Subject {
    /// A round or square thing of radius `r` at `c`.
    pub(super) fn round(c: P, r: f64) -> Subject {
        Subject { at: c, half: (r, r) }
    }

    /// The box around these points (a unit's stands).
    pub(super) fn around(points: &[P]) -> Subject {
        let (mut min, mut max) = ((f64::INFINITY, f64::INFINITY), (f64::NEG_INFINITY, f64::NEG_INFINITY));
        for p in points {
            min = (min.0.min(p.0), min.1.min(p.1));
            max = (max.0.max(p.0), max.1.max(p.1));
        }
        if !min.0.is_finite() {
            return Subject::round((0.0, 0.0), 0.0);
        }
        Subject {
            at: ((min.0 + max.0) / 2.0, (min.1 + max.1) / 2.0),
            half: ((max.0 - min.0) / 2.0, (max.1 - min.1) / 2.0),
        }
    }

    /// Where a line from its centre towards `p` leaves its box.
    fn edge_towards(&self, p: P) -> P {
        let (dx, dy) = (p.0 - self.at.0, p.1 - self.at.1);
        let t = [(self.half.0, dx), (self.half.1, dy)]
            .iter()
            .filter(|(_, d)| d.abs() > 1e-9)
            .map(|(h, d)| h / d.abs())
            .fold(1.0_f64, f64::min);
        (self.at.0 + dx * t, self.at.1 + dy * t)
    }
}

/// A placed label: its position, and the leader line drawn to it if any.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Placed {
    pub label: Label,
    pub leader: Option<(P, P)>,
}

/// A convex quadrilateral on the page (a label's box, a stand, a marker), corners in order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quad {
    corners: [P; 4],
    /// The corners' bounds, min and max: the quick test before the exact one.
    min: P,
    max: P,
}

impl Quad {
    /// The axis-aligned box from `min` to `max`.
    pub(super) fn rect(min: P, max: P) -> Quad {
        Quad::new([(min.0, min.1), (max.0, min.1), (max.0, max.1), (min.0, max.1)])
    }

    /// The box around a circle.
    pub(super) fn around(c: P, r: f64) -> Quad {
        Quad::rect((c.0 - r, c.1 - r), (c.0 + r, c.1 + r))
    }

    /// Four corners as drawn (a stand's outline).
    pub(super) fn of(corners: &[P]) -> Option<Quad> {
        (corners.len() >= 4).then(|| Quad::new([corners[0], corners[1], corners[2], corners[3]]))
    }

    fn new(corners: [P; 4]) -> Quad {
        let xs = corners.map(|p| p.0);
        let ys = corners.map(|p| p.1);
        let min = |v: [f64; 4]| v.iter().copied().fold(f64::INFINITY, f64::min);
        let max = |v: [f64; 4]| v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Quad { corners, min: (min(xs), min(ys)), max: (max(xs), max(ys)) }
    }

    fn bounds(&self) -> (P, P) {
        (self.min, self.max)
    }

    /// Whether its bounds meet the box from `min` to `max`.
    fn near(&self, (min, max): (P, P)) -> bool {
        self.min.0 < max.0 && min.0 < self.max.0 && self.min.1 < max.1 && min.1 < self.max.1
    }

    fn shifted(&self, by: P) -> Quad {
        Quad {
            corners: self.corners.map(|p| (p.0 + by.0, p.1 + by.1)),
            min: (self.min.0 + by.0, self.min.1 + by.1),
            max: (self.max.0 + by.0, self.max.1 + by.1),
        }
    }

    /// Whether two convex quadrilaterals overlap (the separating axis test; touching is not
    /// overlapping).
    fn overlaps(&self, other: &Quad) -> bool {
        let ((ax0, ay0), (ax1, ay1)) = self.bounds();
        let ((bx0, by0), (bx1, by1)) = other.bounds();
        if ax1 <= bx0 || bx1 <= ax0 || ay1 <= by0 || by1 <= ay0 {
            return false;
        }
        for quad in [self, other] {
            for i in 0..4 {
                let (a, b) = (quad.corners[i], quad.corners[(i + 1) % 4]);
                let axis = (a.1 - b.1, b.0 - a.0);
                let project = |q: &Quad| {
                    let dots = q.corners.map(|p| p.0 * axis.0 + p.1 * axis.1);
                    let lo = dots.iter().copied().fold(f64::INFINITY, f64::min);
                    let hi = dots.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                    (lo, hi)
                };
                let ((lo1, hi1), (lo2, hi2)) = (project(self), project(other));
                if hi1 <= lo2 + 1e-9 || hi2 <= lo1 + 1e-9 {
                    return false;
                }
            }
        }
        true
    }

    /// The point of the quadrilateral's outline nearest `p`.
    fn nearest(&self, p: P) -> P {
        let mut best = self.corners[0];
        let mut best_d = f64::INFINITY;
        for i in 0..4 {
            let (a, b) = (self.corners[i], self.corners[(i + 1) % 4]);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len2 = dx * dx + dy * dy;
            let t = if len2 == 0.0 {
                0.0
            } else {
                (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
            };
            let q = (a.0 + dx * t, a.1 + dy * t);
            let d = (q.0 - p.0).hypot(q.1 - p.1);
            if d < best_d {
                (best, best_d) = (q, d);
            }
        }
        best
    }
}

/// A label's box where it asks to be, grown by `pad` all round.
pub(super) fn label_box(label: &Label, pad: f64) -> Quad {
    // A bold badge is set wider than the regular face.
    let width = text_width(&label.text, label.size) * if label.bold { 1.15 } else { 1.0 };
    let (x, y) = label.at;
    let left = match label.anchor {
        "middle" => x - width / 2.0,
        "end" => x - width,
        _ => x,
    };
    let corners = [
        (left - pad, y - ASCENT * label.size - pad),
        (left + width + pad, y - ASCENT * label.size - pad),
        (left + width + pad, y + DESCENT * label.size + pad),
        (left - pad, y + DESCENT * label.size + pad),
    ];
    if label.rotate == 0.0 {
        return Quad::new(corners);
    }
    let (sin, cos) = label.rotate.to_radians().sin_cos();
    Quad::new(corners.map(|(px, py)| {
        let (dx, dy) = (px - x, py - y);
        (x + dx * cos - dy * sin, y + dx * sin + dy * cos)
    }))
}

/// The offsets a label whose box is `base` tries, each with how far it reads from where the
/// label asked to be, nearest first: none; rings at growing distances in eight directions
/// (along the text's own line first, for a turned one); and, for a label of something, the
/// box set right, left, above and below that thing at growing gaps, as near as the gap (a name
/// written behind a unit reads as well on its other side).
fn candidates(base: &Quad, rotate: f64, subject: Option<Subject>) -> Vec<(P, f64)> {
    const RINGS: [f64; 12] = [0.2, 0.4, 0.65, 0.95, 1.3, 1.7, 2.2, 2.8, 3.5, 4.3, 5.2, 6.5];
    let mut out = Vec::new();
    let (sin, cos) = rotate.to_radians().sin_cos();
    if rotate != 0.0 {
        // Slide along the line it names, on either side.
        for step in [0.8, 1.6, 2.4, 3.2, 4.8, 6.4] {
            out.push(((cos * step, sin * step), step));
            out.push(((-cos * step, -sin * step), step));
        }
    }
    let diagonal = std::f64::consts::FRAC_1_SQRT_2;
    for r in RINGS {
        for (dx, dy) in [
            (0.0, -1.0),
            (0.0, 1.0),
            (1.0, 0.0),
            (-1.0, 0.0),
            (diagonal, -diagonal),
            (-diagonal, -diagonal),
            (diagonal, diagonal),
            (-diagonal, diagonal),
        ] {
            out.push(((dx * r, dy * r), r));
        }
    }
    if let Some(Subject { at: s, half: (hx, hy) }) = subject.filter(|_| rotate == 0.0) {
        let ((x0, y0), (x1, y1)) = base.bounds();
        let (mid_x, mid_y) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
        for gap in [0.1, 0.45, 0.9] {
            out.push(((s.0 + hx + gap - x0, s.1 - mid_y), gap + 0.3));
            out.push(((s.0 - hx - gap - x1, s.1 - mid_y), gap + 0.3));
            out.push(((s.0 - mid_x, s.1 - hy - gap - y1), gap + 0.3));
            out.push(((s.0 - mid_x, s.1 + hy + gap - y0), gap + 0.3));
        }
    }
    // Nearest first; the order above breaks ties.
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out.insert(0, ((0.0, 0.0), 0.0));
    out
}

/// The labels placed so far on a map and the shapes they keep off: what a later layer's labels
/// must not overlap (the ground's, for the forces drawn over them step by step).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Placer {
    /// The table's frame: min and max corners on the page.
    frame: (P, P),
    /// The boxes of the labels placed.
    taken: Vec<Quad>,
    /// Things drawn that a label had better not cover.
    shapes: Vec<Quad>,
}

impl Placer {
    pub(super) fn new(frame: (P, P)) -> Placer {
        Placer { frame, taken: Vec::new(), shapes: Vec::new() }
    }

    /// Shapes labels should keep off.
    pub(super) fn avoid(&mut self, shapes: impl IntoIterator<Item = Quad>) {
        self.shapes.extend(shapes);
    }

    /// Keeps this placer's labels clear of `other`'s too.
    pub(super) fn take(&mut self, other: &Placer) {
        self.taken.extend(other.taken.iter().copied());
    }

    fn inside(&self, quad: &Quad) -> bool {
        let ((x0, y0), (x1, y1)) = quad.bounds();
        let ((fx0, fy0), (fx1, fy1)) = self.frame;
        x0 >= fx0 && y0 >= fy0 && x1 <= fx1 && y1 <= fy1
    }

    /// Places `labels` in order of their rank (the order given within a rank), each at its
    /// first candidate that overlaps no label placed before and lies inside the frame, best
    /// one covering no shape. A terrain name with no such candidate is left out; any other
    /// label keeps the candidate that overlaps the fewest.
    pub(super) fn place(&mut self, mut labels: Vec<Label>) -> Vec<Placed> {
        labels.sort_by_key(|l| l.rank);
        let mut out = Vec::with_capacity(labels.len());
        for label in labels {
            let base = label_box(&label, PAD);
            let candidates = candidates(&base, label.rotate, label.subject);
            // Only what lies where some candidate may go is looked at.
            let reach = candidates.iter().fold((base.min, base.max), |(lo, hi), ((dx, dy), _)| {
                (
                    (lo.0.min(base.min.0 + dx), lo.1.min(base.min.1 + dy)),
                    (hi.0.max(base.max.0 + dx), hi.1.max(base.max.1 + dy)),
                )
            });
            let taken: Vec<&Quad> = self.taken.iter().filter(|q| q.near(reach)).collect();
            let shapes: Vec<&Quad> = self.shapes.iter().filter(|q| q.near(reach)).collect();
            let mut free: Option<(usize, P, f64)> = None;
            let mut least: Option<(usize, P, f64)> = None;
            for (offset, far) in candidates {
                // Past this far, the first place clear of labels does, whatever it covers.
                if free.is_some() && far > SHAPE_SEARCH {
                    break;
                }
                let quad = base.shifted(offset);
                if !self.inside(&quad) {
                    continue;
                }
                let clashes = taken.iter().filter(|t| t.overlaps(&quad)).count();
                if clashes > 0 {
                    if least.is_none_or(|(n, ..)| clashes < n) {
                        least = Some((clashes, offset, far));
                    }
                    continue;
                }
                let covered = shapes.iter().filter(|s| s.overlaps(&quad)).count();
                if free.is_none_or(|(n, ..)| covered < n) {
                    free = Some((covered, offset, far));
                }
                if covered == 0 {
                    break;
                }
            }
            let (offset, far) = match (free, least) {
                (Some((_, offset, far)), _) => (offset, far),
                (None, _) if label.rank.droppable() => continue,
                (None, Some((_, offset, far))) => (offset, far),
                (None, None) => ((0.0, 0.0), 0.0),
            };
            let quad = base.shifted(offset);
            self.taken.push(quad);
            let mut label = label;
            label.at = (label.at.0 + offset.0, label.at.1 + offset.1);
            let leader = label.subject.filter(|_| far > LEADER_FROM).map(|subject| {
                let to = label_box(&label, 0.02).nearest(subject.at);
                (subject.edge_towards(to), to)
            });
            out.push(Placed { label, leader });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(at: P, text: &str, rank: Rank) -> Label {
        Label {
            at,
            text: text.into(),
            size: 0.45,
            anchor: "start",
            rotate: 0.0,
            colour: "#222222",
            rank,
            subject: Some(Subject::round(at, 0.0)),
            bold: false,
        }
    }

    /// Issue 21: "The Cornfield (2 VP)" was written over "Miller's Cornfield". An objective is
    /// placed first, where it asks to be; the field's name moves off it.
    #[test]
    fn issue_21_a_field_s_name_moves_off_the_objective_s() {
        let mut placer = Placer::new(((0.0, 0.0), (40.0, 30.0)));
        let placed = placer.place(vec![
            label((10.0, 10.0), "Miller's Cornfield", Rank::Area),
            label((10.2, 10.1), "The Cornfield (2 VP)", Rank::Objective),
        ]);
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[0].label.text, "The Cornfield (2 VP)");
        assert_eq!(placed[0].label.at, (10.2, 10.1));
        assert_ne!(placed[1].label.at, (10.0, 10.0));
        assert!(!label_box(&placed[0].label, 0.0).overlaps(&label_box(&placed[1].label, 0.0)));
    }

    /// A label near the frame's edge is moved in; one the frame cannot hold with the others is
    /// left out only if it names terrain.
    #[test]
    fn labels_stay_inside_the_frame_and_only_terrain_is_dropped() {
        let mut placer = Placer::new(((0.0, 0.0), (10.0, 2.0)));
        let placed = placer.place(vec![label((9.0, 0.2), "Hooker", Rank::Leader)]);
        let quad = label_box(&placed[0].label, PAD);
        assert!(placer.inside(&quad), "{quad:?}");
        // The frame holds no second line beside a long first one: a field's name is dropped, a
        // regiment's kept (overlapping as little as it can).
        let mut placer = Placer::new(((0.0, 0.0), (6.0, 0.8)));
        let first = placer.place(vec![label((0.1, 0.5), "20th Maine Volunteers", Rank::Unit)]);
        assert_eq!(first.len(), 1);
        assert!(placer.place(vec![label((0.1, 0.5), "Big Round Top", Rank::Hill)]).is_empty());
        assert_eq!(placer.place(vec![label((0.1, 0.5), "15th Alabama", Rank::Unit)]).len(), 1);
    }

    /// A label moved well off its subject gets a leader line from the subject to its box.
    #[test]
    fn a_label_far_from_its_subject_gets_a_leader_line() {
        let mut placer = Placer::new(((0.0, 0.0), (40.0, 30.0)));
        let many: Vec<Label> =
            (0..6).map(|i| label((10.0, 10.0), &format!("Regiment number {i}"), Rank::Unit)).collect();
        let placed = placer.place(many);
        assert_eq!(placed.len(), 6);
        assert!(placed[0].leader.is_none());
        assert!(placed.iter().any(|p| p.leader.is_some_and(|(from, _)| from == (10.0, 10.0))));
        // A label moved round to the other side of its subject needs none.
        let mut placer = Placer::new(((0.0, 0.0), (40.0, 30.0)));
        let mut unit = label((10.0, 10.0), "6th Wisconsin", Rank::Unit);
        unit.anchor = "end";
        unit.subject = Some(Subject { at: (12.0, 9.8), half: (1.5, 0.5) });
        placer.avoid([Quad::rect((3.0, 9.0), (10.0, 11.0))]);
        placer.avoid([Quad::rect((10.5, 9.3), (13.5, 10.3))]);
        let placed = placer.place(vec![unit]);
        assert!(placed[0].label.at.0 > 13.5, "{:?}", placed[0].label.at);
        assert!(placed[0].leader.is_none());
        for (i, a) in placed.iter().enumerate() {
            for b in &placed[i + 1..] {
                assert!(!label_box(&a.label, 0.0).overlaps(&label_box(&b.label, 0.0)));
            }
        }
    }

    /// A turned label's box is the turned rectangle: two parallel names along one road do not
    /// clash where their upright boxes would.
    #[test]
    fn turned_boxes_overlap_only_where_they_do() {
        let mut a = label((0.0, 0.0), "Emmitsburg Road", Rank::Line);
        a.rotate = 45.0;
        let mut b = a.clone();
        b.at = (1.0, -1.0);
        assert!(!label_box(&a, 0.0).overlaps(&label_box(&b, 0.0)));
        b.at = (1.0, 1.0);
        assert!(label_box(&a, 0.0).overlaps(&label_box(&b, 0.0)));
    }
}
