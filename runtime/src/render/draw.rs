//! Drawing the table: terrain, the grid, units, leaders, arcs and lines of sight.
//!
//! The table's own geometry comes from the battlefield model ([`Battlefield`], [`Body`]); this
//! module only turns it into page positions ([`Page`]) and SVG. The symbol helpers at the top
//! work in page positions, so the legend draws its samples with the same code.

use geo::{BoundingRect, Coord, Distance, Euclidean, LineString};

use dotc_lang::ast::UnitKind;

use super::action::Mark;
use super::labels::{Label, Placed, Placer, Quad, Rank, Subject};
use super::style::{
    AreaStyle, BUILDING_FILL, BUILDING_STROKE, CREST_STROKE, HILL_STROKE, LineStyle, MarkerSymbol,
    OBJECTIVE_FILL, OBJECTIVE_STROKE, ObstacleStyle, SideColours, hill_fill,
};
use super::svg::{Page, Writer, num};
use super::{Focus, MapRank, MapState, MapUnit};
use crate::battlefield::arcs::front_arc;
use crate::battlefield::range::{range, range_line};
use crate::battlefield::sight::{Friend, SightBlock, SightQuery, Smoke, Smoker, smoke_walls};
use crate::battlefield::{Battlefield, Body};

/// Label sizes, inches.
pub const LABEL: f64 = 0.45;
pub const UNIT_LABEL: f64 = 0.5;
pub const SMALL: f64 = 0.38;

/// A brigadier's base: the rulebook gives only the commander's size (RULE-07-4.1, the rule
/// data's `commander` entries), so the brigadier is drawn on the 1" round base command range is
/// measured from (dotc D7).
pub use crate::battlefield::range::BRIGADIER_BASE;

/// How far the flank zones and the 90-degree line are drawn: past any table (the table clips).
const FAR: f64 = 400.0;

// ------------------------------------------------------------------ page-position helpers

pub type P = (f64, f64);

/// `M x y L x y ...` through page positions.
pub fn d(points: &[P], close: bool) -> String {
    let mut out = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        out.push_str(if i == 0 { "M" } else { "L" });
        out.push_str(&num(*x));
        out.push(' ');
        out.push_str(&num(*y));
    }
    if close && !out.is_empty() {
        out.push('Z');
    }
    out
}

/// A circle as a path.
pub fn circle(c: P, r: f64) -> String {
    format!(
        "M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0Z",
        num(c.0 - r),
        num(c.1),
        num(2.0 * r),
        num(-2.0 * r),
        r = num(r)
    )
}

/// A five-pointed star.
pub fn star(c: P, r: f64) -> String {
    let points: Vec<P> = (0..10)
        .map(|i| {
            let radius = if i % 2 == 0 { r } else { r * 0.42 };
            let angle = (i as f64 * 36.0 - 90.0).to_radians();
            (c.0 + radius * angle.cos(), c.1 + radius * angle.sin())
        })
        .collect();
    d(&points, true)
}

fn length(points: &[P]) -> f64 {
    points.windows(2).map(|w| ((w[1].0 - w[0].0).powi(2) + (w[1].1 - w[0].1).powi(2)).sqrt()).sum()
}

/// Points every `step` along a polyline, with the unit direction there.
fn along(points: &[P], step: f64, start: f64) -> Vec<(P, P)> {
    let mut out = Vec::new();
    let mut next = start;
    let mut walked = 0.0;
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        if len == 0.0 {
            continue;
        }
        let dir = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        while next <= walked + len + 1e-9 {
            let t = next - walked;
            out.push(((a.0 + dir.0 * t, a.1 + dir.1 * t), dir));
            next += step;
        }
        walked += len;
    }
    out
}

/// A rail fence's zigzag along a line.
fn zigzag(points: &[P], step: f64, amplitude: f64) -> Vec<P> {
    along(points, step, 0.0)
        .iter()
        .enumerate()
        .map(|(i, ((x, y), (dx, dy)))| {
            let side = if i % 2 == 0 { amplitude } else { -amplitude };
            (x - dy * side, y + dx * side)
        })
        .collect()
}

/// A linear obstacle through page positions.
pub fn obstacle(w: &mut Writer, style: ObstacleStyle, points: &[P]) {
    let base = d(points, false);
    match style {
        ObstacleStyle::RailFence => {
            let zig = zigzag(points, 0.35, 0.13);
            w.path(&d(&zig, false), &[("fill", "none"), ("stroke", "#7a5230"), ("stroke-width", "0.06")]);
        }
        ObstacleStyle::StoneWall => {
            // Grey blocks with dark joints.
            w.path(&base, &[("fill", "none"), ("stroke", "#4a4a4a"), ("stroke-width", "0.26")]);
            w.path(
                &base,
                &[
                    ("fill", "none"),
                    ("stroke", "#b8b8b8"),
                    ("stroke-width", "0.15"),
                    ("stroke-dasharray", "0.2 0.06"),
                ],
            );
        }
        ObstacleStyle::Hedge => {
            w.path(&base, &[("fill", "none"), ("stroke", "#2f6a22"), ("stroke-width", "0.08")]);
            w.path(
                &base,
                &[
                    ("fill", "none"),
                    ("stroke", "#4f9a3a"),
                    ("stroke-width", "0.3"),
                    ("stroke-linecap", "round"),
                    ("stroke-dasharray", "0.01 0.32"),
                ],
            );
        }
        ObstacleStyle::Abatis => {
            w.path(&base, &[("fill", "none"), ("stroke", "#6b4a2b"), ("stroke-width", "0.05")]);
            let mut ticks = String::new();
            for ((x, y), (dx, dy)) in along(points, 0.45, 0.2) {
                let (a, b) = (0.17 * (dx - dy), 0.17 * (dy + dx));
                let (c, e) = (0.17 * (dx + dy), 0.17 * (dy - dx));
                ticks.push_str(&d(&[(x - a, y - b), (x + a, y + b)], false));
                ticks.push_str(&d(&[(x - c, y - e), (x + c, y + e)], false));
            }
            w.path(&ticks, &[("fill", "none"), ("stroke", "#6b4a2b"), ("stroke-width", "0.06")]);
        }
        ObstacleStyle::Breastworks => {
            w.path(&base, &[("fill", "none"), ("stroke", "#8a6a43"), ("stroke-width", "0.22")]);
            let mut ticks = String::new();
            for ((x, y), (dx, dy)) in along(points, 0.3, 0.15) {
                ticks.push_str(&d(&[(x - dy * 0.1, y + dx * 0.1), (x - dy * 0.32, y + dx * 0.32)], false));
            }
            w.path(&ticks, &[("fill", "none"), ("stroke", "#5a3d1e"), ("stroke-width", "0.05")]);
        }
        ObstacleStyle::HastyWorks => {
            w.path(&base, &[("fill", "none"), ("stroke", "#a8824f"), ("stroke-width", "0.14")]);
            let mut ticks = String::new();
            for ((x, y), (dx, dy)) in along(points, 0.25, 0.12) {
                ticks.push_str(&d(&[(x - dy * 0.07, y + dx * 0.07), (x - dy * 0.22, y + dx * 0.22)], false));
            }
            w.path(&ticks, &[("fill", "none"), ("stroke", "#6b4a2b"), ("stroke-width", "0.04")]);
        }
        ObstacleStyle::Other => {
            w.path(
                &base,
                &[
                    ("fill", "none"),
                    ("stroke", "#444444"),
                    ("stroke-width", "0.12"),
                    ("stroke-dasharray", "0.3 0.15"),
                ],
            );
        }
    }
}

/// Terrain drawn as a line through page positions.
pub fn terrain_line(w: &mut Writer, style: LineStyle, points: &[P]) {
    let path = d(points, false);
    for (colour, width, dash) in style.strokes() {
        let width = num(*width);
        let mut attrs = vec![
            ("fill", "none"),
            ("stroke", *colour),
            ("stroke-width", width.as_str()),
            ("stroke-linecap", "round"),
            ("stroke-linejoin", "round"),
        ];
        if let Some(dash) = dash {
            attrs.push(("stroke-dasharray", dash));
            attrs[3] = ("stroke-linecap", "butt");
        }
        w.path(&path, &attrs);
    }
}

/// An area's outline through page positions (`path` already built).
pub fn area(w: &mut Writer, style: AreaStyle, path: &str) {
    let (fill, stroke) = style.paint();
    w.path(path, &[("fill", &fill), ("stroke", stroke), ("stroke-width", "0.05")]);
}

pub fn hill(w: &mut Writer, level: u32, path: &str) {
    w.path(path, &[("fill", hill_fill(level)), ("stroke", HILL_STROKE), ("stroke-width", "0.07")]);
}

pub fn crest(w: &mut Writer, path: &str) {
    w.path(
        path,
        &[
            ("fill", "none"),
            ("stroke", CREST_STROKE),
            ("stroke-width", "0.1"),
            ("stroke-dasharray", "0.6 0.15 0.1 0.15"),
        ],
    );
}

pub fn building(w: &mut Writer, path: &str) {
    w.path(path, &[("fill", BUILDING_FILL), ("stroke", BUILDING_STROKE), ("stroke-width", "0.06")]);
}

pub fn objective(w: &mut Writer, c: P) {
    w.path(
        &circle(c, 0.42),
        &[("fill", OBJECTIVE_FILL), ("stroke", OBJECTIVE_STROKE), ("stroke-width", "0.06")],
    );
    w.path(&star(c, 0.3), &[("fill", OBJECTIVE_STROKE)]);
}

/// A ford: a pale band across the water, `dir` the stream's direction.
pub fn ford(w: &mut Writer, c: P, dir: P) {
    let rect = across(c, dir, 0.5, 1.0);
    w.path(
        &d(&rect, true),
        &[
            ("fill", "#e4f1fa"),
            ("stroke", "#3f7fbf"),
            ("stroke-width", "0.05"),
            ("stroke-dasharray", "0.12 0.08"),
        ],
    );
}

/// A bridge: a deck across the water with its parapets.
pub fn bridge(w: &mut Writer, c: P, dir: P) {
    let rect = across(c, dir, 0.5, 1.2);
    w.path(&d(&rect, true), &[("fill", "#b08050"), ("stroke", "#4a2f14"), ("stroke-width", "0.05")]);
    let parapets = format!("{}{}", d(&[rect[0], rect[1]], false), d(&[rect[3], rect[2]], false));
    w.path(&parapets, &[("fill", "none"), ("stroke", "#4a2f14"), ("stroke-width", "0.1")]);
}

/// The rectangle `along` long in the direction `dir` and `wide` across it, centred on `c`.
fn across(c: P, dir: P, along: f64, wide: f64) -> Vec<P> {
    let (ax, ay) = (dir.0 * along / 2.0, dir.1 * along / 2.0);
    let (px, py) = (-dir.1 * wide / 2.0, dir.0 * wide / 2.0);
    vec![
        (c.0 - ax - px, c.1 - ay - py),
        (c.0 + ax - px, c.1 + ay - py),
        (c.0 + ax + px, c.1 + ay + py),
        (c.0 - ax + px, c.1 - ay + py),
    ]
}

/// One stand of `kind`: its outline (page positions, front-left corner first, clockwise as
/// [`crate::geometry::Frame::rectangle`] gives them) and its arm's mark: the cross of infantry,
/// the slash of cavalry, the gun of a battery.
pub fn stand_mark(kind: UnitKind, corners: &[P]) -> String {
    if corners.len() < 4 {
        return String::new();
    }
    let (fl, fr, br, bl) = (corners[0], corners[1], corners[2], corners[3]);
    let inset = |a: P, b: P| (a.0 + (b.0 - a.0) * 0.15, a.1 + (b.1 - a.1) * 0.15);
    match kind {
        UnitKind::Regiment => {
            format!(
                "{}{}",
                d(&[inset(fl, br), inset(br, fl)], false),
                d(&[inset(fr, bl), inset(bl, fr)], false)
            )
        }
        UnitKind::Cavalry => d(&[inset(bl, fr), inset(fr, bl)], false),
        UnitKind::Battery => {
            let c = ((fl.0 + br.0) / 2.0, (fl.1 + br.1) / 2.0);
            circle(c, 0.17)
        }
    }
}

/// A marker's radius on the map, inches.
const MARKER_RADIUS: f64 = 0.24;

/// A marker's symbol centred on `c` (gunsmoke's legend sample too).
pub fn marker(w: &mut Writer, symbol: MarkerSymbol, c: P, initial: &str) {
    let r = MARKER_RADIUS;
    let letter = |w: &mut Writer, text: &str, colour: &str| {
        w.text(
            (c.0, c.1 + 0.11),
            &[("font-size", "0.3"), ("text-anchor", "middle"), ("fill", colour), ("stroke", "none")],
            text,
        );
    };
    match symbol {
        MarkerSymbol::Disorder => {
            w.path(&circle(c, r), &[("fill", "#d8431f"), ("stroke", "#ffffff"), ("stroke-width", "0.04")]);
            letter(w, "D", "#ffffff");
        }
        MarkerSymbol::LowAmmo => {
            let square = [(c.0 - r, c.1 - r), (c.0 + r, c.1 - r), (c.0 + r, c.1 + r), (c.0 - r, c.1 + r)];
            w.path(
                &d(&square, true),
                &[("fill", "#f4d03f"), ("stroke", "#5a4a00"), ("stroke-width", "0.04")],
            );
            letter(w, "A", "#3a3000");
        }
        MarkerSymbol::StandsLost => {
            w.path(&circle(c, r), &[("fill", "#ffffff"), ("stroke", "#a01818"), ("stroke-width", "0.05")]);
            w.text(
                (c.0, c.1 + 0.09),
                &[("font-size", "0.24"), ("text-anchor", "middle"), ("fill", "#a01818"), ("stroke", "none")],
                initial,
            );
        }
        MarkerSymbol::MicroHit => {
            w.path(&circle(c, r), &[("fill", "#222222"), ("stroke", "#ffffff"), ("stroke-width", "0.04")]);
            letter(w, "1", "#ffffff");
        }
        MarkerSymbol::Gunsmoke => {
            let puff = format!(
                "{}{}{}",
                circle((c.0 - 0.2, c.1 + 0.05), 0.2),
                circle((c.0 + 0.05, c.1 - 0.1), 0.25),
                circle((c.0 + 0.25, c.1 + 0.08), 0.18)
            );
            w.path(
                &puff,
                &[
                    ("fill", "#9a9a9a"),
                    ("fill-opacity", "0.8"),
                    ("stroke", "#666666"),
                    ("stroke-width", "0.03"),
                ],
            );
        }
        MarkerSymbol::Other => {
            w.path(&circle(c, r), &[("fill", "#777777"), ("stroke", "#ffffff"), ("stroke-width", "0.04")]);
            letter(w, initial, "#ffffff");
        }
    }
}

/// Gunsmoke on the table: the 1" square in front of the unit (RULE-05-5.1), as a cloud.
fn smoke_cloud(w: &mut Writer, page: &Page, body: &Body, size: f64) {
    let smoke = Smoke::marker_of(body, size);
    w.path(
        &page.polygon_path(smoke.area()),
        &[
            ("fill", "#9a9a9a"),
            ("fill-opacity", "0.65"),
            ("stroke", "#9a9a9a"),
            ("stroke-opacity", "0.65"),
            ("stroke-width", "0.3"),
            ("stroke-linejoin", "round"),
        ],
    );
}

/// A commander's square base with a star, or a brigadier's round one with a pennant, `base`
/// inches across, drawn `size` times life size (1 on the table, less in the legend).
pub fn leader(w: &mut Writer, rank: MapRank, base: f64, c: P, colours: SideColours, size: f64) {
    let at = |dx: f64, dy: f64| (c.0 + dx * size, c.1 + dy * size);
    match rank {
        MapRank::Commander => {
            let h = base / 2.0;
            let square = [at(-h, -h), at(h, -h), at(h, h), at(-h, h)];
            w.path(
                &d(&square, true),
                &[("fill", colours.pale), ("stroke", colours.dark), ("stroke-width", "0.06")],
            );
            w.path(
                &star(c, 0.5 * size),
                &[("fill", colours.fill), ("stroke", colours.dark), ("stroke-width", "0.03")],
            );
        }
        MapRank::Brigadier => {
            w.path(
                &circle(c, base / 2.0 * size),
                &[("fill", colours.pale), ("stroke", colours.dark), ("stroke-width", "0.06")],
            );
            let pole = d(&[at(-0.15, 0.3), at(-0.15, -0.3)], false);
            let flag = d(&[at(-0.15, -0.3), at(0.3, -0.17), at(-0.15, -0.04)], true);
            w.path(&pole, &[("stroke", colours.dark), ("stroke-width", "0.05")]);
            w.path(&flag, &[("fill", colours.fill)]);
        }
    }
}

/// A blind token's size on the map, inches (width, depth): dotc's own drawing, not a rule. The
/// module gives the token no size; a block as wide as a brigade's frontage would cover the
/// table, so every blind is a 2" x 1" block with rounded corners, long side east-west (a blind
/// has no facing).
pub const BLIND_TOKEN: (f64, f64) = (2.0, 1.0);

/// A blind token (Ch13 4.0) centred on `c`, `size` times life size (1 on the table, less in
/// the legend): a dashed rounded block in its side's colours with `text` in it, its name or, for
/// an enemy's blind not yet revealed, "?".
pub fn blind_token(w: &mut Writer, c: P, colours: SideColours, text: &str, size: f64) {
    let (width, depth) = (BLIND_TOKEN.0 * size, BLIND_TOKEN.1 * size);
    w.empty(
        "rect",
        &[
            ("x", &num(c.0 - width / 2.0)),
            ("y", &num(c.1 - depth / 2.0)),
            ("width", &num(width)),
            ("height", &num(depth)),
            ("rx", &num(0.25 * size)),
            ("fill", colours.pale),
            ("stroke", colours.dark),
            ("stroke-width", "0.06"),
            ("stroke-dasharray", "0.2 0.1"),
        ],
    );
    let font = 0.5 * size;
    w.text(
        (c.0, c.1 + font * 0.35),
        &[
            ("font-size", &num(font)),
            ("text-anchor", "middle"),
            ("font-weight", "bold"),
            ("fill", colours.dark),
        ],
        text,
    );
}

// ------------------------------------------------------------------ the table

/// Everything drawn on the table, in layers from the ground up. Labels come last so nothing
/// hides them.
pub struct Table<'a> {
    pub field: &'a Battlefield,
    pub state: &'a MapState,
    pub page: Page,
    pub colours: &'a [SideColours],
    pub focus: Option<&'a Focus>,
}

/// The radius of a reinforcement's ring, inches.
const ARRIVAL_RING: f64 = 0.5;

/// A table position moved in, if need be, so that a mark of `radius` around it lies inside a
/// table of `size` (width, depth).
fn inside_frame(at: (f64, f64), size: (f64, f64), radius: f64) -> (f64, f64) {
    let clamp = |v: f64, len: f64| if len > 2.0 * radius { v.clamp(radius, len - radius) } else { len / 2.0 };
    (clamp(at.0, size.0), clamp(at.1, size.1))
}

/// What a layer of the table drew that its labels are placed around: the labels themselves
/// and the shapes they had better not cover (stands, leaders' bases, markers, objectives).
#[derive(Default)]
pub(super) struct Scene {
    labels: Vec<Label>,
    shapes: Vec<Quad>,
}

impl Scene {
    fn push(&mut self, label: Label) {
        self.labels.push(label);
    }

    fn shape(&mut self, quad: Quad) {
        self.shapes.push(quad);
    }
}

impl Table<'_> {
    /// The table's frame on the page, which every label stays inside.
    fn frame(&self) -> (P, P) {
        let page = self.page;
        ((page.left, page.top), (page.left + page.width, page.top + page.depth))
    }

    /// The whole table, `marks` (a step's moves and fire, [`super::action`]) drawn over the
    /// forces, and every label placed over all of them (issue 21).
    pub fn draw(&self, w: &mut Writer, marks: &[Mark]) {
        let ground = self.ground(w);
        let mut forces = self.forces(w);
        super::action::draw_marks(w, self.page, marks);
        forces.labels.extend(super::action::badges(self.page, marks));
        let placed = self.place_ground(ground, &forces);
        let mut labels = placed.1;
        labels.extend(self.place_forces(&placed.0, forces));
        draw_labels(w, "labels", &labels);
    }

    /// The ground's labels placed around the shapes of the ground and the forces; returns the
    /// placer holding them, for the forces' labels.
    fn place_ground(&self, ground: Scene, forces: &Scene) -> (Placer, Vec<Placed>) {
        let mut placer = Placer::new(self.frame());
        placer.avoid(ground.shapes.iter().chain(&forces.shapes).copied());
        let placed = placer.place(ground.labels);
        // The forces' labels keep off the ground's markers, not the forces' shapes of the
        // moment this placer was made at.
        let mut kept = Placer::new(self.frame());
        kept.avoid(ground.shapes);
        kept.take(&placer);
        (kept, placed)
    }

    /// The forces' labels placed around the ground's labels and every shape.
    fn place_forces(&self, ground: &Placer, forces: Scene) -> Vec<Placed> {
        let mut placer = ground.clone();
        placer.avoid(forces.shapes);
        placer.place(forces.labels)
    }

    /// What stays put through a game: the terrain, the grid, the overlays (the focus unit's,
    /// objectives, arrivals). Returns their labels, to be written over everything else.
    fn ground(&self, w: &mut Writer) -> Scene {
        let mut labels = Scene::default();
        w.open("g", &[("id", "terrain"), ("clip-path", "url(#table-clip)")]);
        self.hills(w, &mut labels);
        self.areas(w, &mut labels);
        self.lines(w, &mut labels);
        self.obstacles(w, &mut labels);
        self.crests(w);
        self.buildings(w, &mut labels);
        w.close("g");
        self.grid(w);
        w.open("g", &[("id", "overlays"), ("clip-path", "url(#table-clip)")]);
        if let Some(focus) = self.focus {
            self.arcs(w, focus, &mut labels);
            self.sight(w, focus, &mut labels);
        }
        self.objectives(w, &mut labels);
        self.arrivals(w, &mut labels);
        w.close("g");
        labels
    }

    /// The forces: blinds, units and leaders. Returns their labels.
    fn forces(&self, w: &mut Writer) -> Scene {
        let mut labels = Scene::default();
        w.open("g", &[("id", "units")]);
        self.blinds(w, &mut labels);
        self.units(w, &mut labels);
        self.leaders(w, &mut labels);
        w.close("g");
        labels
    }

    /// [`Table::draw`] in two parts for a page that redraws the forces at every step (the HTML
    /// replay, issue 21): the ground with its labels written into `ground` and `ground_labels`.
    /// The labels are placed around this table's forces; the placer returned holds them, for
    /// the forces' labels of every step ([`Table::draw_forces`]).
    pub fn draw_ground(&self, ground: &mut Writer, ground_labels: &mut Writer) -> Placer {
        let scene = self.ground(ground);
        let forces = self.forces(&mut Writer::new());
        let (placer, placed) = self.place_ground(scene, &forces);
        draw_labels(ground_labels, "labels", &placed);
        placer
    }

    /// The forces, with their own labels over them, in one group with this id, the labels
    /// placed clear of the ground's (`ground`, from [`Table::draw_ground`]).
    pub fn draw_forces(&self, w: &mut Writer, id: &str, ground: &Placer) {
        self.draw_step(w, id, ground, None);
    }

    /// [`Table::draw_forces`], and with `marks` a step's marks into their own writer and group:
    /// their badges placed after the forces' labels, clear of them, the ground's and every
    /// shape, so the forces' group is the same whatever the step's marks (issue 21).
    pub fn draw_step(
        &self,
        w: &mut Writer,
        id: &str,
        ground: &Placer,
        marks: Option<(&mut Writer, &str, &[Mark])>,
    ) {
        w.open("g", &[("id", id)]);
        let forces = self.forces(w);
        let mut placer = ground.clone();
        placer.avoid(forces.shapes);
        let labels = placer.place(forces.labels);
        draw_labels(w, "unit-labels", &labels);
        w.close("g");
        if let Some((action, action_id, marks)) = marks {
            action.open("g", &[("id", action_id), ("clip-path", "url(#table-clip)")]);
            super::action::draw_marks(action, self.page, marks);
            let badges = placer.place(super::action::badges(self.page, marks));
            draw_labels(action, "badge-labels", &badges);
            action.close("g");
        }
    }

    fn p(&self, c: Coord<f64>) -> P {
        self.page.coord(c)
    }

    fn pts(&self, line: &LineString<f64>) -> Vec<P> {
        line.coords().map(|c| self.p(*c)).collect()
    }

    /// The bodies of the units on the table.
    fn placed(&self) -> impl Iterator<Item = (usize, &MapUnit, &Body)> {
        self.state.units.iter().enumerate().filter_map(|(i, u)| u.body.as_ref().map(|b| (i, u, b)))
    }

    /// Of two places for a label, the one farther from every unit's colours (so a name beside
    /// a fence lands on the side its defenders are not).
    fn clearer(&self, a: P, b: P) -> P {
        let clearance = |p: P| {
            self.placed()
                .map(|(_, _, body)| {
                    let c = self.page.at(body.position.0, body.position.1);
                    (c.0 - p.0).powi(2) + (c.1 - p.1).powi(2)
                })
                .fold(f64::INFINITY, f64::min)
        };
        if clearance(b) > clearance(a) + 1e-9 { b } else { a }
    }

    /// A name along a line: at the middle of its longest segment, turned to read along it,
    /// set off to the side with more room.
    fn line_label(&self, points: &[P], text: &str, offset: f64, labels: &mut Scene) {
        let Some(longest) = points.windows(2).max_by(|a, b| seg_len(a).total_cmp(&seg_len(b))) else {
            return;
        };
        let (a, b) = (longest[0], longest[1]);
        let len = seg_len(longest);
        if len == 0.0 {
            return;
        }
        let (dx, dy) = ((b.0 - a.0) / len, (b.1 - a.1) / len);
        let mut angle = dy.atan2(dx).to_degrees();
        if angle > 90.0 {
            angle -= 180.0;
        } else if angle <= -90.0 {
            angle += 180.0;
        }
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        // The baseline sits `offset` to one side; text grows upward from it, so the side below
        // the line (as read) needs the label's height more.
        let (nx, ny) = (-dy, dx);
        let up = (mid.0 - nx * offset, mid.1 - ny * offset);
        let down = (mid.0 + nx * (offset + LABEL * 0.7), mid.1 + ny * (offset + LABEL * 0.7));
        let at = self.clearer(up, down);
        labels.push(Label {
            at,
            text: text.to_string(),
            size: LABEL,
            anchor: "middle",
            rotate: angle,
            colour: "#222222",
            rank: Rank::Line,
            subject: None,
            bold: false,
        });
    }

    fn hills(&self, w: &mut Writer, labels: &mut Scene) {
        let mut hills: Vec<_> = self.field.hills.iter().collect();
        hills.sort_by_key(|h| h.level);
        for h in hills {
            hill(w, h.level, &self.page.polygon_path(&h.outline));
            if let Some(rect) = h.outline.bounding_rect() {
                let text = match &h.name {
                    Some(name) => format!("{name} (level {})", h.level),
                    None => format!("level {}", h.level),
                };
                let (x, y) = self.page.at(rect.center().x, rect.max().y);
                labels.push(Label {
                    at: (x, y + 0.65),
                    text,
                    size: LABEL,
                    anchor: "middle",
                    rotate: 0.0,
                    colour: "#5c3f1c",
                    rank: Rank::Hill,
                    subject: None,
                    bold: false,
                });
            }
        }
    }

    fn crests(&self, w: &mut Writer) {
        for h in &self.field.hills {
            if let Some(line) = &h.crest {
                crest(w, &self.page.line_path(line));
            }
        }
    }

    fn areas(&self, w: &mut Writer, labels: &mut Scene) {
        for a in &self.field.areas {
            area(w, AreaStyle::of(&a.terrain), &self.page.polygon_path(&a.outline));
            if let (Some(name), Some(rect)) = (&a.name, a.outline.bounding_rect()) {
                let (x, y) = self.page.at(rect.center().x, rect.center().y);
                labels.push(Label {
                    at: (x, y + LABEL * 0.35),
                    text: name.clone(),
                    size: LABEL,
                    anchor: "middle",
                    rotate: 0.0,
                    colour: "#222222",
                    rank: Rank::Area,
                    subject: None,
                    bold: false,
                });
            }
        }
    }

    fn lines(&self, w: &mut Writer, labels: &mut Scene) {
        // Roads over water over the rest: a bridge's road runs over its stream.
        let mut lines: Vec<_> =
            self.field.lines.iter().map(|l| (LineStyle::of(&l.terrain, &l.flags), l)).collect();
        lines.sort_by_key(|(style, _)| match style {
            LineStyle::River | LineStyle::Stream => 0,
            LineStyle::Track | LineStyle::SunkenRoad => 1,
            LineStyle::Road => 2,
        });
        for (style, l) in &lines {
            let points = self.pts(&l.line);
            terrain_line(w, *style, &points);
            if let Some(name) = &l.name {
                self.line_label(&points, name, 0.35, labels);
            }
        }
        // Crossings over everything that runs through them.
        for (_, l) in &lines {
            for &(x, y) in &l.fords {
                ford(w, self.page.at(x, y), direction_at(&l.line, &self.page, (x, y)));
            }
            for &(x, y) in &l.bridges {
                bridge(w, self.page.at(x, y), direction_at(&l.line, &self.page, (x, y)));
            }
        }
    }

    fn obstacles(&self, w: &mut Writer, labels: &mut Scene) {
        for o in &self.field.obstacles {
            let points = self.pts(&o.line);
            obstacle(w, ObstacleStyle::of(&o.obstacle.meta.id), &points);
            if let Some(name) = &o.name {
                self.line_label(&points, name, 0.3, labels);
            }
        }
        // Ch13 14.0: the hasty works dug in play, where they were dug.
        for works in &self.state.works {
            obstacle(w, ObstacleStyle::of(&works.id), &self.pts(&works.line));
        }
    }

    fn buildings(&self, w: &mut Writer, labels: &mut Scene) {
        for b in &self.field.buildings {
            let (x, y) = self.page.at(b.at.0, b.at.1);
            let (path, top, bottom) = match &b.footprint {
                Some(walls) => {
                    let rect = walls.bounding_rect();
                    let top = rect.map_or(y, |r| self.page.at(0.0, r.max().y).1);
                    let bottom = rect.map_or(y, |r| self.page.at(0.0, r.min().y).1);
                    (self.page.polygon_path(walls), top, bottom)
                }
                None => {
                    let square =
                        [(x - 0.3, y - 0.3), (x + 0.3, y - 0.3), (x + 0.3, y + 0.3), (x - 0.3, y + 0.3)];
                    (d(&square, true), y - 0.3, y + 0.3)
                }
            };
            building(w, &path);
            let holders: Vec<&str> = self
                .state
                .units
                .iter()
                .filter(|u| u.garrison.is_some() && u.garrison == b.name)
                .map(|u| u.name.as_str())
                .collect();
            let mut text = b.name.clone().unwrap_or_else(|| b.structure.meta.title().to_string());
            text.push_str(&format!(" (holds {})", b.capacity));
            if !holders.is_empty() {
                text.push_str(&format!(", held by {}", holders.join(", ")));
            }
            // Above the walls, or below them near the table's north edge.
            let at = if top - self.page.top < 0.8 { (x, bottom + LABEL + 0.1) } else { (x, top - 0.2) };
            labels.push(Label {
                at,
                text,
                size: LABEL,
                anchor: "middle",
                rotate: 0.0,
                colour: "#222222",
                rank: Rank::Building,
                subject: Some(Subject { at: (x, (top + bottom) / 2.0), half: (0.3, (bottom - top) / 2.0) }),
                bold: false,
            });
        }
    }

    fn objectives(&self, w: &mut Writer, labels: &mut Scene) {
        for o in &self.field.objectives {
            let c = self.page.at(o.at.0, o.at.1);
            w.open("g", &[("class", "objective")]);
            objective(w, c);
            w.close("g");
            labels.shape(Quad::around(c, 0.42));
            let text = match o.vp {
                Some(vp) => format!("{} ({} VP)", o.name, num(vp)),
                None => o.name.clone(),
            };
            labels.push(Label {
                at: (c.0 + 0.6, c.1 + 0.15),
                text,
                size: LABEL,
                anchor: "start",
                rotate: 0.0,
                colour: "#4a3600",
                rank: Rank::Objective,
                subject: Some(Subject::round(c, 0.42)),
                bold: false,
            });
        }
    }

    /// A light line every inch and a stronger one every 6", each set one path.
    fn grid(&self, w: &mut Writer) {
        let (width, depth) = (self.page.width, self.page.depth);
        let mut light = String::new();
        let mut strong = String::new();
        let mut x = 1.0;
        while x < width - 1e-9 {
            let line = d(&[self.page.at(x, 0.0), self.page.at(x, depth)], false);
            if (x % 6.0).abs() < 1e-9 {
                strong.push_str(&line)
            } else {
                light.push_str(&line)
            }
            x += 1.0;
        }
        let mut y = 1.0;
        while y < depth - 1e-9 {
            let line = d(&[self.page.at(0.0, y), self.page.at(width, y)], false);
            if (y % 6.0).abs() < 1e-9 {
                strong.push_str(&line)
            } else {
                light.push_str(&line)
            }
            y += 1.0;
        }
        w.open("g", &[("id", "grid"), ("fill", "none"), ("stroke", "#000000")]);
        w.path(&light, &[("stroke-opacity", "0.09"), ("stroke-width", "0.02")]);
        w.path(&strong, &[("stroke-opacity", "0.28"), ("stroke-width", "0.04")]);
        w.close("g");
    }

    fn units(&self, w: &mut Writer, labels: &mut Scene) {
        for (index, unit, body) in self.placed() {
            let colours = self.colours.get(unit.side).copied().unwrap_or(self.colours[0]);
            let side = self.state.sides.get(unit.side).map_or("", |s| s.id.as_str());
            let id = format!("unit-{index}");
            // The stands' paint is the group's; each stand is one element of class `stand`.
            w.open(
                "g",
                &[
                    ("id", &id),
                    ("class", "unit"),
                    ("data-unit", &unit.name),
                    ("data-side", side),
                    ("fill", colours.fill),
                    ("stroke", colours.dark),
                    ("stroke-width", "0.03"),
                ],
            );
            if unit.markers.iter().any(|(m, _)| m == "gunsmoke") {
                smoke_cloud(w, &self.page, body, self.field.smoke.size);
            }
            let mut marks = String::new();
            for stand in body.stands() {
                let corners: Vec<P> = stand.exterior().coords().take(4).map(|c| self.p(*c)).collect();
                marks.push_str(&stand_mark(unit.kind, &corners));
                labels.shapes.extend(Quad::of(&corners));
                w.empty("path", &[("class", "stand"), ("d", &d(&corners, true))]);
            }
            let mark_attrs: &[(&str, &str)] = match unit.kind {
                UnitKind::Battery => &[("fill", "#ffffff"), ("fill-opacity", "0.85"), ("stroke", "none")],
                _ => &[
                    ("fill", "none"),
                    ("stroke", "#ffffff"),
                    ("stroke-opacity", "0.75"),
                    ("stroke-width", "0.04"),
                ],
            };
            w.path(&marks, mark_attrs);
            let frame = body.frame();
            let edge = body.front_edge();
            w.path(&d(&[self.p(edge.start), self.p(edge.end)], false), &[("stroke-width", "0.12")]);
            let arrow = [frame.to_table(0.0, 0.55), frame.to_table(0.22, 0.14), frame.to_table(-0.22, 0.14)];
            w.path(&d(&arrow.map(|c| self.p(c)), true), &[("fill", colours.dark), ("stroke", "none")]);
            let colour_stand = self.page.at(body.position.0, body.position.1);
            w.path(&circle(colour_stand, 0.11), &[("fill", "#ffffff"), ("stroke-width", "0.04")]);
            for (point, word) in [(unit.screen, "screen"), (unit.holders, "holders")] {
                let Some(at) = point else { continue };
                let detached = Body::new(
                    at,
                    body.facing,
                    crate::geometry::Layout::new(1, None, 0.0, body.layout.stand_width),
                );
                for stand in detached.stands() {
                    w.empty(
                        "path",
                        &[
                            ("class", word),
                            ("d", &self.page.polygon_path(&stand)),
                            ("fill", colours.pale),
                            ("stroke-width", "0.04"),
                            ("stroke-dasharray", "0.1 0.06"),
                        ],
                    );
                }
            }
            let mut symbols: Vec<(MarkerSymbol, String)> = unit
                .markers
                .iter()
                .filter(|(m, _)| m != "gunsmoke")
                .map(|(id, title)| {
                    let initial = title.chars().next().map(|c| c.to_uppercase().to_string());
                    (MarkerSymbol::of(id), initial.unwrap_or_default())
                })
                .collect();
            if unit.stands_lost > 0 {
                symbols.push((MarkerSymbol::StandsLost, format!("\u{2212}{}", unit.stands_lost)));
            }
            // Beside the unit's right flank, or its left where the right runs off the table
            // (issue 21: every marker inside the frame).
            let room = MARKER_RADIUS + 0.05;
            let fits = |at: Coord<f64>| {
                let p = self.p(at);
                let (min, max) = self.frame();
                p.0 - room >= min.0 && p.0 + room <= max.0 && p.1 - room >= min.1 && p.1 + room <= max.1
            };
            let place = |i: usize, side: f64| {
                frame.to_table(side * (body.half_width() + 0.35 + i as f64 * 0.55), -0.375)
            };
            let side = if (0..symbols.len()).all(|i| fits(place(i, 1.0))) { 1.0 } else { -1.0 };
            for (i, (symbol, text)) in symbols.iter().enumerate() {
                let at = place(i, side);
                let at = inside_frame((at.x, at.y), (self.page.width, self.page.depth), room);
                let c = self.page.at(at.0, at.1);
                w.open("g", &[("class", "marker")]);
                marker(w, *symbol, c, text);
                w.close("g");
                labels.shape(Quad::around(c, MARKER_RADIUS));
            }
            w.close("g");
            labels.push(self.unit_label(unit, body));
        }
    }

    /// Each blind not yet revealed (Ch13 4.0) as a token: with its name and, under it, the
    /// brigade it hides or "dummy" for a reader who may know ([`MapState::knows`]); a plain "?"
    /// for an enemy's in a side's view. The units it hides are off the table, not drawn.
    fn blinds(&self, w: &mut Writer, labels: &mut Scene) {
        for (index, blind) in self.state.blinds.iter().enumerate().filter(|(_, b)| !b.revealed) {
            let colours = self.colours.get(blind.side).copied().unwrap_or(self.colours[0]);
            let side = self.state.sides.get(blind.side).map_or("", |s| s.id.as_str());
            let c = self.page.at(blind.at.0, blind.at.1);
            let id = format!("blind-{index}");
            let known = self.state.knows(blind);
            let mut attrs = vec![("id", id.as_str()), ("class", "blind"), ("data-side", side)];
            if known {
                attrs.push(("data-blind", &blind.name));
            }
            w.open("g", &attrs);
            blind_token(w, c, colours, if known { &blind.name } else { "?" }, 1.0);
            let half = (BLIND_TOKEN.0 / 2.0, BLIND_TOKEN.1 / 2.0);
            labels.shape(Quad::rect((c.0 - half.0, c.1 - half.1), (c.0 + half.0, c.1 + half.1)));
            w.close("g");
            if known {
                labels.push(Label {
                    at: (c.0, c.1 + BLIND_TOKEN.1 / 2.0 + SMALL + 0.05),
                    text: blind.brigade.clone().unwrap_or_else(|| "dummy".to_string()),
                    size: SMALL,
                    anchor: "middle",
                    rotate: 0.0,
                    colour: colours.dark,
                    rank: Rank::Blind,
                    subject: Some(Subject { at: c, half: (BLIND_TOKEN.0 / 2.0, BLIND_TOKEN.1 / 2.0) }),
                    bold: false,
                });
            }
        }
    }

    /// A unit's name behind it, reading away from it.
    fn unit_label(&self, unit: &MapUnit, body: &Body) -> Label {
        let frame = body.frame();
        let behind = self.p(frame.to_table(0.0, -body.depth() - 0.3));
        let centre = self.p(frame.to_table(0.0, 0.0));
        let (bx, by) = (behind.0 - centre.0, behind.1 - centre.1);
        let (at, anchor) = if bx.abs() >= by.abs() * 1.2 {
            ((behind.0, behind.1 + UNIT_LABEL * 0.35), if bx < 0.0 { "end" } else { "start" })
        } else if by > 0.0 {
            ((behind.0, behind.1 + UNIT_LABEL * 0.8), "middle")
        } else {
            ((behind.0, behind.1 - 0.05), "middle")
        };
        Label {
            at,
            text: unit.name.clone(),
            size: UNIT_LABEL,
            anchor,
            rotate: 0.0,
            colour: "#111111",
            rank: Rank::Unit,
            subject: Some(Subject::around(
                &body
                    .stands()
                    .iter()
                    .flat_map(|s| s.exterior().coords().map(|c| self.p(*c)).collect::<Vec<_>>())
                    .collect::<Vec<_>>(),
            )),
            bold: false,
        }
    }

    fn leaders(&self, w: &mut Writer, labels: &mut Scene) {
        for (index, leader) in self.state.leaders.iter().enumerate() {
            let at = leader.position.or_else(|| {
                let unit = self.state.unit(leader.attached.as_deref()?)?;
                let body = unit.body.as_ref()?;
                let c = body.frame().to_table(0.0, -body.depth() - 0.7);
                Some((c.x, c.y))
            });
            let Some((x, y)) = at else { continue };
            let colours = self.colours.get(leader.side).copied().unwrap_or(self.colours[0]);
            let c = self.page.at(x, y);
            let id = format!("leader-{index}");
            let rank = match leader.rank {
                MapRank::Commander => "commander",
                MapRank::Brigadier => "brigadier",
            };
            w.open("g", &[("id", &id), ("class", rank), ("data-leader", &leader.name)]);
            self::leader(w, leader.rank, leader.base, c, colours, 1.0);
            labels.shape(Quad::around(c, leader.base / 2.0));
            w.close("g");
            let below = leader.base / 2.0;
            labels.push(Label {
                at: (c.0, c.1 + below + SMALL + 0.05),
                text: leader.name.clone(),
                size: SMALL,
                anchor: "middle",
                rotate: 0.0,
                colour: colours.dark,
                rank: Rank::Leader,
                subject: Some(Subject::round(c, leader.base / 2.0)),
                bold: false,
            });
        }
    }

    /// Where reinforcements come on: a dashed ring with an arrow and the time. An entry point on
    /// the table's edge has its ring drawn wholly inside the frame, touching the edge (issue 21:
    /// a marker half cut off by the frame).
    fn arrivals(&self, w: &mut Writer, labels: &mut Scene) {
        for arrival in &self.state.arrivals {
            let colours = arrival.side.and_then(|s| self.colours.get(s).copied()).unwrap_or(self.colours[0]);
            let at = inside_frame(arrival.at, (self.page.width, self.page.depth), ARRIVAL_RING + 0.05);
            let c = self.page.at(at.0, at.1);
            labels.shape(Quad::around(c, ARRIVAL_RING));
            w.open("g", &[("class", "arrival")]);
            w.path(
                &circle(c, ARRIVAL_RING),
                &[
                    ("fill", colours.pale),
                    ("fill-opacity", "0.7"),
                    ("stroke", colours.dark),
                    ("stroke-width", "0.05"),
                    ("stroke-dasharray", "0.15 0.1"),
                ],
            );
            if let Some(facing) = arrival.facing {
                let frame = crate::geometry::Frame::new(at, facing);
                let tip = [frame.to_table(0.0, 0.4), frame.to_table(0.22, -0.2), frame.to_table(-0.22, -0.2)];
                w.path(&d(&tip.map(|p| self.p(p)), true), &[("fill", colours.dark)]);
            }
            w.close("g");
            let east = arrival.at.0 > self.page.width / 2.0;
            labels.push(Label {
                at: (if east { c.0 - 0.7 } else { c.0 + 0.7 }, c.1 + 0.15),
                text: format!("{}: {}", arrival.when, arrival.name),
                size: SMALL,
                anchor: if east { "end" } else { "start" },
                rotate: 0.0,
                colour: colours.dark,
                rank: Rank::Arrival,
                subject: Some(Subject::round(c, ARRIVAL_RING)),
                bold: false,
            });
        }
    }

    /// The chosen unit's front arc and flank zones (Ch16 4.5, RULINGS G13), and its 90-degree
    /// line. The front arc is the battlefield model's; the flank zones run from its rays to the
    /// front edge extended.
    fn arcs(&self, w: &mut Writer, focus: &Focus, labels: &mut Scene) {
        if !focus.arcs {
            return;
        }
        let Some(body) = self.state.unit(&focus.unit).and_then(|u| u.body.as_ref()) else { return };
        let frame = body.frame();
        let half = body.half_width();
        w.open("g", &[("id", "arcs")]);
        w.path(
            &self.page.polygon_path(&front_arc(body)),
            &[("fill", "#2f8a57"), ("fill-opacity", "0.16"), ("stroke", "#1f6a3f"), ("stroke-width", "0.06")],
        );
        for side in [-1.0, 1.0] {
            let zone = flank_zone(body, side);
            w.path(
                &d(&zone.map(|c| self.p(c)), true),
                &[
                    ("fill", "#c27a1b"),
                    ("fill-opacity", "0.14"),
                    ("stroke", "#8a5210"),
                    ("stroke-width", "0.04"),
                ],
            );
        }
        let ninety = [frame.to_table(-half - FAR, 0.0), frame.to_table(half + FAR, 0.0)];
        w.path(
            &d(&ninety.map(|c| self.p(c)), false),
            &[("stroke", "#5a3d1e"), ("stroke-width", "0.05"), ("stroke-dasharray", "0.3 0.2")],
        );
        w.close("g");
        for (across, ahead, text) in
            [(0.0, 4.0, "front arc"), (-half - 5.0, 2.0, "left flank"), (half + 5.0, 2.0, "right flank")]
        {
            labels.push(Label {
                at: self.p(frame.to_table(across, ahead)),
                text: text.to_string(),
                size: LABEL,
                anchor: "middle",
                rotate: 0.0,
                colour: if across == 0.0 { "#1f6a3f" } else { "#8a5210" },
                rank: Rank::Focus,
                subject: None,
                bold: false,
            });
        }
    }

    /// Lines of sight from the chosen unit to every enemy in range of its weapon: clear (with
    /// range, band and the stands that see) or blocked (with the reason), as
    /// [`Battlefield::sight`] judges them. Friends block unless skirmishing; gunsmoke markers
    /// count, and the Smoke Walls they merge into (RULE-05-5.5, dotc D5 `lines_across`); weather limits and overhead fire are not drawn.
    fn sight(&self, w: &mut Writer, focus: &Focus, labels: &mut Scene) {
        if !focus.sight {
            return;
        }
        let Some((firer_index, firer, body)) = self.placed().find(|(_, u, _)| u.name == focus.unit) else {
            return;
        };
        let Some(weapon) = &firer.weapon else { return };
        let reach = weapon.max_range(firer.arm);
        let friends: Vec<Friend<'_>> = self
            .placed()
            .filter(|(i, u, _)| *i != firer_index && u.side == firer.side)
            .map(|(_, u, b)| Friend { body: b, formed: u.formed })
            .collect();
        let friend_names: Vec<&str> = self
            .placed()
            .filter(|(i, u, _)| *i != firer_index && u.side == firer.side)
            .map(|(_, u, _)| u.name.as_str())
            .collect();
        let smoking: Vec<(usize, &MapUnit, &Body)> =
            self.placed().filter(|(_, u, _)| u.markers.iter().any(|(m, _)| m == "gunsmoke")).collect();
        let markers: Vec<Smoke> =
            smoking.iter().map(|(_, _, b)| Smoke::marker_of(b, self.field.smoke.size)).collect();
        // RULE-05-5.5, RULINGS C32: the Smoke Walls the regiments' markers merge into, each with
        // the indices of its units (dotc D5's default: a wall does not block its own regiments'
        // lines, so a line from or to one of them leaves it out).
        let brigades: Vec<&str> = self.state.units.iter().filter_map(|u| u.brigade.as_deref()).collect();
        let regiments: Vec<(usize, &Body, Option<usize>)> = smoking
            .iter()
            .filter(|(_, u, _)| u.kind != UnitKind::Battery)
            .map(|&(i, u, b)| {
                (i, b, u.brigade.as_deref().and_then(|n| brigades.iter().position(|m| *m == n)))
            })
            .collect();
        let smokers: Vec<Smoker<'_>> =
            regiments.iter().map(|&(_, body, brigade)| Smoker { body, brigade }).collect();
        let walls: Vec<(Vec<usize>, Smoke)> = smoke_walls(&smokers, &self.field.smoke)
            .into_iter()
            .map(|group| {
                let bodies: Vec<&Body> = group.iter().map(|&k| regiments[k].1).collect();
                let units = group.iter().map(|&k| regiments[k].0).collect();
                (units, Smoke::wall_of(&bodies, self.field.smoke.size))
            })
            .collect();
        w.open("g", &[("id", "sight")]);
        for (target_index, target, target_body) in self.placed().filter(|(_, u, _)| u.side != firer.side) {
            if range(body, target_body) > reach {
                continue;
            }
            let mut smoke = markers.clone();
            smoke.extend(
                walls
                    .iter()
                    .filter(|(units, _)| !units.contains(&firer_index) && !units.contains(&target_index))
                    .map(|(_, wall)| wall.clone()),
            );
            let mut query = SightQuery::new(body, target_body);
            query.friends = &friends;
            query.smoke = &smoke;
            query.firer_garrison = firer.garrison.as_deref();
            query.target_garrison = target.garrison.as_deref();
            let sight = self.field.sight(&query);
            let line = range_line(body, target_body);
            let (a, b) = (self.p(line.start), self.p(line.end));
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let text = if sight.visible {
                w.path(
                    &d(&[a, b], false),
                    &[("class", "sight-clear"), ("stroke", "#1d7a3a"), ("stroke-width", "0.07")],
                );
                let band = crate::battlefield::range::band(weapon, firer.arm, sight.range)
                    .map_or(String::new(), |b| format!(" {}", b.name.word()));
                let mut text = format!("{}\u{2033}{band}", num(sight.range));
                let firing = body.front_rank().len();
                if sight.clear_stands.len() < firing {
                    text.push_str(&format!(", {} of {firing} stands", sight.clear_stands.len()));
                }
                if sight.smoke_penalty {
                    text.push_str(", smoke \u{2212}1");
                }
                text
            } else {
                w.path(
                    &d(&[a, b], false),
                    &[
                        ("class", "sight-blocked"),
                        ("stroke", "#b3372f"),
                        ("stroke-width", "0.05"),
                        ("stroke-dasharray", "0.3 0.2"),
                    ],
                );
                let reason = sight
                    .blocked
                    .as_ref()
                    .map_or("blocked".to_string(), |block| self.blocked(block, &friend_names));
                format!("{}\u{2033} {reason}", num(sight.range))
            };
            labels.push(Label {
                at: (mid.0, mid.1 - 0.12),
                text,
                size: SMALL,
                anchor: "middle",
                rotate: 0.0,
                colour: if sight.visible { "#1d5a2f" } else { "#8a1f18" },
                rank: Rank::Focus,
                subject: None,
                bold: false,
            });
        }
        w.close("g");
    }

    fn blocked(&self, block: &SightBlock, friends: &[&str]) -> String {
        let area_name = |i: usize| {
            self.field.areas.get(i).map_or("terrain".to_string(), |a| {
                a.name.clone().unwrap_or_else(|| a.terrain.meta.title().to_string())
            })
        };
        match block {
            SightBlock::Weather { limit } => format!("beyond the weather's {}\u{2033}", num(*limit)),
            SightBlock::DeadGround(dead) => {
                let hill = self
                    .field
                    .hills
                    .get(dead.hill)
                    .and_then(|h| h.name.clone())
                    .unwrap_or_else(|| "a crest".into());
                format!("dead ground behind {hill}")
            }
            SightBlock::SmokeWall { .. } => "smoke wall".to_string(),
            SightBlock::Terrain { area, inside, limit } => {
                format!("{} {}\u{2033} deep, sight {}\u{2033}", area_name(*area), num(*inside), num(*limit))
            }
            SightBlock::Building { building } => {
                let name = self.field.buildings.get(*building).and_then(|b| b.name.clone());
                format!("through {}", name.unwrap_or_else(|| "a building".into()))
            }
            SightBlock::Friend { friend } => {
                format!("{} in the way", friends.get(*friend).copied().unwrap_or("a friend"))
            }
        }
    }
}

/// The labels in a group of this id, white-haloed so they read over anything, each after the
/// leader line that ties it to what it names.
fn draw_labels(w: &mut Writer, id: &str, labels: &[Placed]) {
    w.open(
        "g",
        &[
            ("id", id),
            ("clip-path", "url(#table-clip)"),
            ("stroke", "#ffffff"),
            ("stroke-width", "0.12"),
            ("stroke-linejoin", "round"),
            ("paint-order", "stroke"),
        ],
    );
    for Placed { label, leader } in labels {
        if let Some((from, to)) = leader {
            w.path(
                &d(&[*from, *to], false),
                &[
                    ("class", "leader-line"),
                    ("fill", "none"),
                    ("stroke", label.colour),
                    ("stroke-width", "0.03"),
                ],
            );
        }
        let size = num(label.size);
        let mut attrs: Vec<(&str, &str)> = vec![("font-size", &size)];
        if label.bold {
            attrs.insert(0, ("class", "badge"));
            attrs.push(("font-weight", "bold"));
        }
        if label.anchor != "start" {
            attrs.push(("text-anchor", label.anchor));
        }
        if label.colour != "#222222" {
            attrs.push(("fill", label.colour));
        }
        let rotate;
        if label.rotate != 0.0 {
            rotate = format!("rotate({} {} {})", num(label.rotate), num(label.at.0), num(label.at.1));
            attrs.push(("transform", &rotate));
        }
        w.text(label.at, &attrs, &label.text);
    }
    w.close("g");
}

/// A flank zone (RULINGS G13) as a triangle reaching past the table: from the front corner on
/// `side` (-1 left, +1 right) between the 45-degree ray and the front edge extended. The
/// battlefield model answers which zone a point is in ([`crate::battlefield::arcs::zone_of`]);
/// this is only its drawing.
pub(super) fn flank_zone(body: &Body, side: f64) -> [Coord<f64>; 3] {
    let frame = body.frame();
    let half = body.half_width();
    [
        frame.to_table(side * half, 0.0),
        frame.to_table(side * (half + FAR), FAR),
        frame.to_table(side * (half + FAR), 0.0),
    ]
}

fn seg_len(w: &[P]) -> f64 {
    length(w)
}

/// The direction (page positions, unit length) of the segment of `line` nearest a point.
fn direction_at(line: &LineString<f64>, page: &Page, point: (f64, f64)) -> P {
    let p = geo::Point::new(point.0, point.1);
    let nearest = line.lines().min_by(|a, b| Euclidean.distance(a, &p).total_cmp(&Euclidean.distance(b, &p)));
    let Some(segment) = nearest else { return (1.0, 0.0) };
    let (a, b) = (page.coord(segment.start), page.coord(segment.end));
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    if len == 0.0 { (1.0, 0.0) } else { ((b.0 - a.0) / len, (b.1 - a.1) / len) }
}

#[cfg(test)]
mod frame_tests {
    use super::inside_frame;

    /// Issue 21: a reinforcement's ring at an entry point on the table's edge is drawn wholly
    /// inside the frame, touching the edge; one already inside stays where it is.
    #[test]
    fn issue_21_a_mark_at_the_table_edge_is_moved_inside_the_frame() {
        let table = (48.0, 36.0);
        assert_eq!(inside_frame((0.0, 10.0), table, 0.55), (0.55, 10.0));
        assert_eq!(inside_frame((48.0, 36.0), table, 0.55), (47.45, 35.45));
        assert_eq!(inside_frame((-3.0, 40.0), table, 0.55), (0.55, 35.45));
        assert_eq!(inside_frame((20.0, 12.0), table, 0.55), (20.0, 12.0));
        // A table narrower than the mark: its middle.
        assert_eq!(inside_frame((0.0, 5.0), (1.0, 36.0), 0.55), (0.5, 5.0));
    }
}
