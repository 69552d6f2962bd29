//! One step of a replay drawn over the map (`dotc replay --html`, issue 21): the moves, charges
//! and fire lines of its events, the stands it took off and the markers it placed.
//!
//! Nothing here is a rule: [`marks_of`] reads the replay's events and the tables before and
//! after the step (where every unit stood); [`draw_marks`] draws them, and [`badges`] gives
//! their notes as labels for the map's placement (`super::render_step`, `dotc render --at`).

use crate::battlefield::Body;
use crate::battlefield::range::range_line;
use crate::engine::What;
use crate::replay::{ReplayEvent, Table};

use super::draw::{P, circle, d};
use super::labels::{Label, Rank, Subject};
use super::svg::{Page, Writer};

/// Something a step did, in table inches.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A unit moved: its colours from here to there (a move, fall back, retreat or pursuit).
    Move { from: (f64, f64), to: (f64, f64) },
    /// A charge: from where the charger stood to the nearest point of its target.
    Charge { from: (f64, f64), to: (f64, f64) },
    /// A volley: the range line between firer and target (RULINGS G4).
    Fire { from: (f64, f64), to: (f64, f64) },
    /// Where a unit stood before it lost stands or left the table.
    Lost { body: Body },
    /// A short note at a unit: "-1 stand", "micro-hit", "+ Disorder".
    Badge { at: (f64, f64), text: String },
}

/// The kinds of mark a map's legend explains (a note explains itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Move,
    Charge,
    Fire,
    Lost,
}

impl Mark {
    /// Its kind for the legend; None for a note.
    pub fn kind(&self) -> Option<MarkKind> {
        match self {
            Mark::Move { .. } => Some(MarkKind::Move),
            Mark::Charge { .. } => Some(MarkKind::Charge),
            Mark::Fire { .. } => Some(MarkKind::Fire),
            Mark::Lost { .. } => Some(MarkKind::Lost),
            Mark::Badge { .. } => None,
        }
    }
}

/// Stands as they stood before they were lost: red, dashed, faint.
fn ghost(w: &mut Writer, path: &str) {
    w.path(
        path,
        &[
            ("class", "lost"),
            ("fill", "#c0392b"),
            ("fill-opacity", "0.15"),
            ("stroke", "#c0392b"),
            ("stroke-width", "0.05"),
            ("stroke-dasharray", "0.12 0.08"),
        ],
    );
}

/// The legend's sample of a kind of mark, centred on the page position `c`, drawn as the map
/// draws it.
pub(super) fn legend_sample(w: &mut Writer, kind: MarkKind, c: P) {
    // A page whose table position (x, y) is the page position (x, -y).
    let page = Page { left: 0.0, top: 0.0, width: 0.0, depth: 0.0 };
    let (from, to) = ((c.0 - 0.55, -c.1), (c.0 + 0.55, -c.1));
    let mark = match kind {
        MarkKind::Move => Mark::Move { from, to },
        MarkKind::Charge => Mark::Charge { from, to },
        MarkKind::Fire => Mark::Fire { from, to: (to.0 - 0.2, to.1) },
        MarkKind::Lost => {
            let (x0, x1, y0, y1) = (c.0 - 0.5, c.0 + 0.5, c.1 - 0.25, c.1 + 0.25);
            return ghost(w, &d(&[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], true));
        }
    };
    draw_marks(w, page, &[mark]);
}

/// The body a table gives a unit of that name.
fn body_in(table: &Table, unit: &str) -> Option<Body> {
    table.units.iter().find(|u| u.name == unit).and_then(|u| u.body)
}

/// What to draw of a step: its events, with where every unit stood `before` and `after` it.
pub fn marks_of(events: &[ReplayEvent], before: &Table, after: &Table) -> Vec<Mark> {
    let mut marks = Vec::new();
    let mut charged: Vec<&str> = Vec::new();
    let at = |unit: &str| body_in(after, unit).or_else(|| body_in(before, unit)).map(|b| b.position);
    let badge = |marks: &mut Vec<Mark>, unit: &str, text: String| {
        if let Some(at) = at(unit) {
            marks.push(Mark::Badge { at, text });
        }
    };
    for e in events {
        match &e.event.what {
            What::Volley { firer, target, .. } => {
                if let (Some(a), Some(b)) = (body_in(before, firer), body_in(before, target)) {
                    let line = range_line(&a, &b);
                    marks.push(Mark::Fire {
                        from: (line.start.x, line.start.y),
                        to: (line.end.x, line.end.y),
                    });
                }
            }
            What::Contact { attacker, defender, .. } => {
                if let (Some(a), Some(b)) = (body_in(before, attacker), body_in(before, defender)) {
                    let line = range_line(&a, &b);
                    marks.push(Mark::Charge { from: a.position, to: (line.end.x, line.end.y) });
                    charged.push(attacker);
                }
            }
            What::Stalled { unit, .. } => {
                if let (Some(a), Some(b)) = (body_in(before, unit), body_in(after, unit)) {
                    marks.push(Mark::Charge { from: a.position, to: b.position });
                    charged.push(unit);
                }
            }
            What::StandsLost { unit, lost, .. } => {
                if let Some(body) = body_in(before, unit) {
                    marks.push(Mark::Lost { body });
                }
                badge(
                    &mut marks,
                    unit,
                    if *lost == 1 { "\u{2212}1 stand".into() } else { format!("\u{2212}{lost} stands") },
                );
            }
            What::Removed { unit, .. } | What::Shattered { unit } => {
                if let Some(body) = body_in(before, unit).filter(|_| body_in(after, unit).is_none()) {
                    marks.push(Mark::Lost { body });
                }
            }
            What::MicroHit { unit, micro_hit } if *micro_hit > 0 => {
                badge(&mut marks, unit, "micro-hit".into())
            }
            What::MarkerPlaced { unit, marker } => {
                badge(&mut marks, unit, format!("+ {}", marker.replace('_', " ")))
            }
            _ => {}
        }
    }
    for now in &after.units {
        let (Some(to), Some(from)) = (now.body, body_in(before, &now.name)) else { continue };
        let moved = (to.position.0 - from.position.0).hypot(to.position.1 - from.position.1) > 0.05;
        if moved && !charged.contains(&now.name.as_str()) {
            marks.push(Mark::Move { from: from.position, to: to.position });
        }
    }
    marks
}

/// An arrow's head at `to`, coming from `from`, in page positions.
fn arrow_head(from: P, to: P, size: f64) -> String {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let len = dx.hypot(dy);
    if len < 1e-9 {
        return String::new();
    }
    let (ux, uy) = (dx / len, dy / len);
    let back = (to.0 - ux * size, to.1 - uy * size);
    let left = (back.0 - uy * size * 0.5, back.1 + ux * size * 0.5);
    let right = (back.0 + uy * size * 0.5, back.1 - ux * size * 0.5);
    d(&[to, left, right], true)
}

/// Where a badge at `at` (table inches) asks to be written, the `stacked`-th at that place:
/// each under the one before.
fn badge_at(page: Page, at: (f64, f64), stacked: usize) -> P {
    let c = page.at(at.0, at.1);
    (c.0 + 0.4, c.1 - 0.5 + stacked as f64 * 0.55)
}

/// The badges of `marks` as labels for a map's placement pass (`dotc render --at`), tied to
/// the unit they name by a leader line if they are set away from it.
pub(super) fn badges(page: Page, marks: &[Mark]) -> Vec<Label> {
    let mut seen: Vec<(f64, f64)> = Vec::new();
    let mut out = Vec::new();
    for mark in marks {
        let Mark::Badge { at, text } = mark else { continue };
        let stacked = seen.iter().filter(|b| **b == *at).count();
        seen.push(*at);
        out.push(Label {
            at: badge_at(page, *at, stacked),
            text: text.clone(),
            size: 0.45,
            anchor: "start",
            rotate: 0.0,
            colour: "#a01818",
            rank: Rank::Badge,
            subject: Some(Subject::round(page.at(at.0, at.1), 0.3)),
            bold: true,
        });
    }
    out
}

/// The marks into `w`; their badges are left for the map's labels ([`badges`]).
pub(super) fn draw_marks(w: &mut Writer, page: Page, marks: &[Mark]) {
    for mark in marks {
        match mark {
            Mark::Move { from, to } | Mark::Charge { from, to } => {
                let (a, b) = (page.at(from.0, from.1), page.at(to.0, to.1));
                let (class, colour, dash) = match mark {
                    Mark::Move { .. } => ("move", "#1f4e8c", "0.3 0.15"),
                    _ => ("charge", "#a01818", "none"),
                };
                w.open("g", &[("class", class), ("stroke", colour), ("fill", colour)]);
                w.path(
                    &d(&[a, b], false),
                    &[("fill", "none"), ("stroke-width", "0.12"), ("stroke-dasharray", dash)],
                );
                w.path(&arrow_head(a, b, 0.6), &[("stroke", "none")]);
                w.close("g");
            }
            Mark::Fire { from, to } => {
                let (a, b) = (page.at(from.0, from.1), page.at(to.0, to.1));
                w.open("g", &[("class", "fire"), ("stroke", "#e07b00"), ("fill", "#e07b00")]);
                w.path(
                    &d(&[a, b], false),
                    &[("fill", "none"), ("stroke-width", "0.09"), ("stroke-dasharray", "0.12 0.12")],
                );
                w.path(&circle(b, 0.3), &[("fill", "none"), ("stroke-width", "0.08")]);
                w.close("g");
            }
            Mark::Lost { body } => {
                let mut stands = String::new();
                for stand in body.stands() {
                    stands.push_str(&page.polygon_path(&stand));
                }
                ghost(w, &stands);
            }
            Mark::Badge { .. } => {}
        }
    }
}
