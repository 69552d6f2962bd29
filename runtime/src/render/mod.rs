//! Maps of the battlefield as SVG: the table to scale with its terrain, every unit as its
//! stands, the leaders, a legend and a title; optionally one unit's arcs and lines of sight.
//!
//! Pure: [`render_svg`] turns a [`Battlefield`], a [`MapState`] and [`RenderOptions`] into SVG
//! text, the same bytes for the same input (numbers rounded to 2 decimals, everything written
//! in the scenario's order, no hash maps). The page's unit is the inch (the root `viewBox`);
//! the root's `width` and `height` are the page in pixels at [`RenderOptions::scale`], so a
//! rasteriser draws the table at exactly that many pixels to the inch. North is up: the
//! scenario's y grows north and is flipped once, in [`svg::Page`].
//!
//! Text asks for [`style::FONT_FAMILY`]; the CLI's PNG output embeds that font so a map looks
//! the same on every machine.

pub mod action;
mod draw;
pub mod labels;
mod legend;
pub mod state;
pub mod style;
pub mod svg;

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use dotc_lang::ranges::MAX_INCHES;

use crate::battlefield::Battlefield;
pub use draw::BRIGADIER_BASE;
pub use state::{MapArrival, MapBlind, MapLeader, MapRank, MapSide, MapState, MapUnit};
use style::AreaStyle;
use svg::{Page, Writer, num};

/// Pixels per inch of the table when nothing else is asked.
pub const DEFAULT_SCALE: f64 = 20.0;

/// Margins around the table and the legend panel's width, inches.
const LEFT: f64 = 1.6;
const TOP: f64 = 3.6;
const BOTTOM: f64 = 3.4;
const GAP: f64 = 1.2;
const PANEL: f64 = 17.0;
const RIGHT: f64 = 0.6;

/// What to draw besides the table and the forces.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderOptions {
    /// Pixels per inch: the root's `width` and `height`.
    pub scale: f64,
    /// One unit whose arcs or lines of sight to draw.
    pub focus: Option<Focus>,
    /// A line for the title block (e.g. why the moment shown is not the one asked for).
    pub note: Option<String>,
    /// What a phase did, drawn over the forces (`dotc render --at`, issue 21): its moves,
    /// charges, fire lines, lost stands and notes.
    pub marks: Vec<action::Mark>,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions { scale: DEFAULT_SCALE, focus: None, note: None, marks: Vec::new() }
    }
}

/// A unit to draw the geometry of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Focus {
    /// The unit's name as the scenario writes it.
    pub unit: String,
    /// Its 45-degree front arc, flank zones and 90-degree line (Ch16 4.5, RULINGS G13).
    pub arcs: bool,
    /// Its lines of sight to enemy units within its weapon's range (Ch16 4.1-4.5, RULE-05-6.x).
    pub sight: bool,
}

/// Where things lie on the page, inches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageLayout {
    /// The whole page.
    pub width: f64,
    pub height: f64,
    /// The table on it.
    pub table: Page,
}

impl PageLayout {
    /// The page in pixels at `scale`, rounded to whole pixels.
    pub fn pixels(&self, scale: f64) -> (u32, u32) {
        ((self.width * scale).round() as u32, (self.height * scale).round() as u32)
    }
}

/// The page a map of this battlefield and these forces takes.
pub fn layout(field: &Battlefield, state: &MapState, options: &RenderOptions) -> PageLayout {
    let (width, depth) = table_size(field, state);
    let legend = legend::Legend::build(field, state, options);
    let page_width = (LEFT + width + GAP + PANEL + RIGHT).ceil();
    let page_height = (TOP + depth.max(legend.height() + 0.6) + BOTTOM).ceil();
    PageLayout { width: page_width, height: page_height, table: Page { left: LEFT, top: TOP, width, depth } }
}

/// The map as SVG text.
pub fn render_svg(field: &Battlefield, state: &MapState, options: &RenderOptions) -> String {
    let mut w = Writer::new();
    let (page, colours) = open_page(&mut w, field, state, options);
    let focus = options.focus.as_ref();
    draw::Table { field, state, page: page.table, colours: &colours, focus }.draw(&mut w, &options.marks);
    close_page(&mut w, field, state, options, page, &colours);
    w.finish()
}

/// A map in layers, for a page that redraws only the forces at each step (`dotc replay
/// --html`, issue 21): `head` opens the SVG and draws the ground (terrain, grid, objectives,
/// arrivals), `tail` writes the ground's labels, the frame, margins, title and legend and closes
/// it. Between them go the forces of each moment ([`render_forces`]) and anything drawn over
/// them; `head` + `render_forces` + `tail` is the same map as [`render_svg`] but for the order
/// of the labels (and the marks, which [`render_svg`] draws from its options).
#[derive(Clone, Debug, PartialEq)]
pub struct MapLayers {
    pub head: String,
    pub tail: String,
    /// Where the table lies on the page.
    pub page: PageLayout,
    /// The ground's labels as placed, which the forces' labels of every step keep clear of.
    pub labels: labels::Placer,
}

/// The ground and frame of the map of `state`'s battlefield ([`MapLayers`]).
pub fn render_layers(field: &Battlefield, state: &MapState, options: &RenderOptions) -> MapLayers {
    let mut head = Writer::new();
    let (page, colours) = open_page(&mut head, field, state, options);
    let mut labels = Writer::new();
    let focus = options.focus.as_ref();
    let placer = draw::Table { field, state, page: page.table, colours: &colours, focus }
        .draw_ground(&mut head, &mut labels);
    let mut tail = Writer::new();
    tail.raw(&labels.finish());
    close_page(&mut tail, field, state, options, page, &colours);
    MapLayers { head: head.finish(), tail: tail.finish(), page, labels: placer }
}

/// The forces of `state` (blinds, units, leaders and their labels) as one SVG group with this
/// id, to go between the head and tail of `layers`, made of the same battlefield and sides; its
/// labels are placed clear of the ground's.
pub fn render_forces(
    field: &Battlefield,
    state: &MapState,
    options: &RenderOptions,
    layers: &MapLayers,
    id: &str,
) -> String {
    let colours = colours_of(state);
    let mut w = Writer::new();
    let focus = options.focus.as_ref();
    draw::Table { field, state, page: layers.page.table, colours: &colours, focus }.draw_forces(
        &mut w,
        id,
        &layers.labels,
    );
    w.finish()
}

/// [`render_forces`], and the step's `marks` ([`action::marks_of`]) as a group of their own
/// with the id `action_id`: moves, charges, fire lines and lost stands, and their badges placed
/// clear of the forces' labels, the ground's and every shape (issue 21). The forces' group is
/// the one [`render_forces`] draws.
pub fn render_step(
    field: &Battlefield,
    state: &MapState,
    options: &RenderOptions,
    layers: &MapLayers,
    (forces_id, action_id): (&str, &str),
    marks: &[action::Mark],
) -> (String, String) {
    let colours = colours_of(state);
    let (mut w, mut action) = (Writer::new(), Writer::new());
    let focus = options.focus.as_ref();
    draw::Table { field, state, page: layers.page.table, colours: &colours, focus }.draw_step(
        &mut w,
        forces_id,
        &layers.labels,
        Some((&mut action, action_id, marks)),
    );
    (w.finish(), action.finish())
}

/// Each side's colours, in the scenario's order.
fn colours_of(state: &MapState) -> Vec<style::SideColours> {
    let ids: Vec<&str> = state.sides.iter().map(|s| s.id.as_str()).collect();
    let colours = style::side_colours(&ids);
    if colours.is_empty() { style::side_colours(&["union"]) } else { colours }
}

/// The SVG's root, title, definitions, the paper and the table's cloth.
fn open_page(
    w: &mut Writer,
    field: &Battlefield,
    state: &MapState,
    options: &RenderOptions,
) -> (PageLayout, Vec<style::SideColours>) {
    let page = layout(field, state, options);
    let table = page.table;
    let legend = legend::Legend::build(field, state, options);
    let colours = colours_of(state);
    let (px_w, px_h) = page.pixels(options.scale);
    w.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    w.open(
        "svg",
        &[
            ("xmlns", "http://www.w3.org/2000/svg"),
            ("width", &px_w.to_string()),
            ("height", &px_h.to_string()),
            ("viewBox", &format!("0 0 {} {}", num(page.width), num(page.height))),
            ("font-family", style::FONT_FAMILY),
            ("fill", "#222222"),
        ],
    );
    w.element("title", &[], &format!("{}: {}", state.title, moment_line(state, options)));
    defs(w, field, &legend, table);
    w.empty("rect", &[("width", &num(page.width)), ("height", &num(page.height)), ("fill", "#ffffff")]);
    w.empty(
        "rect",
        &[
            ("id", "table"),
            ("x", &num(table.left)),
            ("y", &num(table.top)),
            ("width", &num(table.width)),
            ("height", &num(table.depth)),
            ("fill", "#f6f1e1"),
        ],
    );
    (page, colours)
}

/// The table's frame, the margins, the title block and the legend, and the SVG's end.
fn close_page(
    w: &mut Writer,
    field: &Battlefield,
    state: &MapState,
    options: &RenderOptions,
    page: PageLayout,
    colours: &[style::SideColours],
) {
    let table = page.table;
    w.empty(
        "rect",
        &[
            ("x", &num(table.left)),
            ("y", &num(table.top)),
            ("width", &num(table.width)),
            ("height", &num(table.depth)),
            ("fill", "none"),
            ("stroke", "#333333"),
            ("stroke-width", "0.08"),
        ],
    );
    margins(w, table, state.yards_per_inch);
    title(w, state, options, table);
    let legend = legend::Legend::build(field, state, options);
    legend.draw(w, (table.left + table.width + GAP, table.top), PANEL, colours);
    w.close("svg");
}

/// The table's size: the scenario's `table`, or else the whole inches that hold everything
/// drawn, in steps of 6".
///
/// Never more than the largest table a scenario may declare (`dotc_lang::ranges::MAX_INCHES`)
/// a side: the grid draws a line an inch, so a size nobody checked must not size the drawing
/// (`dotc render` draws no file with errors, and a table beyond the range is one).
fn table_size(field: &Battlefield, state: &MapState) -> (f64, f64) {
    if let Some((width, depth)) = field.table {
        let side = |v: f64| if v.is_finite() && v > 0.0 { v.min(MAX_INCHES) } else { 24.0 };
        return (side(width), side(depth));
    }
    let mut far: (f64, f64) = (24.0, 24.0);
    let mut reach = |x: f64, y: f64| {
        if x.is_finite() && y.is_finite() {
            far = (far.0.max(x), far.1.max(y));
        }
    };
    let polygons = field.areas.iter().map(|a| &a.outline).chain(field.hills.iter().map(|h| &h.outline));
    for polygon in polygons {
        polygon.exterior().coords().for_each(|c| reach(c.x, c.y));
    }
    for line in field.lines.iter().map(|l| &l.line).chain(field.obstacles.iter().map(|o| &o.line)) {
        line.coords().for_each(|c| reach(c.x, c.y));
    }
    for unit in &state.units {
        if let Some(body) = &unit.body {
            reach(body.position.0, body.position.1);
        }
    }
    let up = |v: f64| ((v / 6.0).ceil() * 6.0).min(1200.0);
    (up(far.0), up(far.1))
}

/// The line under the subtitle: the moment shown and the caller's note.
fn moment_line(state: &MapState, options: &RenderOptions) -> String {
    // Ch13 4.0: whose view of the blinds the map is.
    let moment = match state.seen_by.and_then(|s| state.sides.get(s)) {
        Some(side) => format!("{}, as {} saw it", state.moment, side.id),
        None => state.moment.clone(),
    };
    match &options.note {
        Some(note) => format!("{moment} \u{2014} {note}"),
        None => moment,
    }
}

fn defs(w: &mut Writer, field: &Battlefield, legend: &legend::Legend, table: Page) {
    w.open("defs", &[]);
    w.open("clipPath", &[("id", "table-clip")]);
    w.empty(
        "rect",
        &[
            ("x", &num(table.left)),
            ("y", &num(table.top)),
            ("width", &num(table.width)),
            ("height", &num(table.depth)),
        ],
    );
    w.close("clipPath");
    let mut used: BTreeSet<AreaStyle> = field.areas.iter().map(|a| AreaStyle::of(&a.terrain)).collect();
    used.extend(legend.area_styles());
    for style in used {
        pattern(w, style);
    }
    w.close("defs");
}

/// The fill pattern of an area style, tiled in page inches.
fn pattern(w: &mut Writer, style: AreaStyle) {
    let Some(id) = style.pattern() else { return };
    let (size, background, ink): ((f64, f64), &str, &[(&str, svg::Attrs<'_>)]) = match style {
        AreaStyle::Cornfield => (
            (0.5, 0.5),
            "#efdc93",
            &[("M0.12 0.06V0.44M0.37 0.06V0.44", &[("stroke", "#b0933a"), ("stroke-width", "0.05")])],
        ),
        AreaStyle::Ploughed => {
            ((0.35, 0.35), "#dcc6a0", &[("M0 0.17H0.35", &[("stroke", "#a5835a"), ("stroke-width", "0.05")])])
        }
        AreaStyle::Orchard => (
            (1.0, 1.0),
            "#e3efcf",
            &[(
                "M0.3 0.5a0.2 0.2 0 1 0 0.4 0a0.2 0.2 0 1 0 -0.4 0Z",
                &[("fill", "#86b862"), ("stroke", "#557f38"), ("stroke-width", "0.03")],
            )],
        ),
        AreaStyle::LightWoods => (
            (1.4, 1.4),
            "#d3e7bb",
            &[(
                "M0.07 0.4a0.28 0.28 0 1 0 0.56 0a0.28 0.28 0 1 0 -0.56 0ZM0.7 0.95a0.3 0.3 0 1 0 0.6 0a0.3 0.3 0 1 0 -0.6 0Z",
                &[("fill", "#8dbd6e"), ("stroke", "#5a8a42"), ("stroke-width", "0.03")],
            )],
        ),
        AreaStyle::DenseWoods => (
            (1.0, 1.0),
            "#7fae68",
            &[(
                "M-0.05 0.3a0.3 0.3 0 1 0 0.6 0a0.3 0.3 0 1 0 -0.6 0ZM0.43 0.75a0.32 0.32 0 1 0 0.64 0a0.32 0.32 0 1 0 -0.64 0ZM0.6 0.2a0.2 0.2 0 1 0 0.4 0a0.2 0.2 0 1 0 -0.4 0Z",
                &[("fill", "#4c8a38"), ("stroke", "#2f5e24"), ("stroke-width", "0.03")],
            )],
        ),
        AreaStyle::Marsh => (
            (1.0, 0.8),
            "#dcece6",
            &[(
                "M0.15 0.35H0.45M0.3 0.35V0.15M0.2 0.35L0.14 0.2M0.4 0.35L0.46 0.2M0.6 0.75H0.9M0.75 0.75V0.55",
                &[("fill", "none"), ("stroke", "#4f8a7c"), ("stroke-width", "0.03")],
            )],
        ),
        AreaStyle::Town => {
            ((0.4, 0.4), "#d8d0c4", &[("M0 0.4L0.4 0", &[("stroke", "#8f8474"), ("stroke-width", "0.04")])])
        }
        _ => return,
    };
    w.open(
        "pattern",
        &[("id", id), ("patternUnits", "userSpaceOnUse"), ("width", &num(size.0)), ("height", &num(size.1))],
    );
    w.empty("rect", &[("width", &num(size.0)), ("height", &num(size.1)), ("fill", background)]);
    for (path, attrs) in ink {
        w.path(path, attrs);
    }
    w.close("pattern");
}

/// Inches along the edges, and the scale bar in yards (at `yards_per_inch`, Ch15 8.0) under the
/// table.
fn margins(w: &mut Writer, table: Page, yards_per_inch: f64) {
    w.open("g", &[("id", "scale"), ("font-size", "0.4"), ("fill", "#444444")]);
    let mut x = 0.0;
    while x <= table.width + 1e-9 {
        let (px, py) = table.at(x, 0.0);
        w.text((px, py + 0.55), &[("text-anchor", "middle")], &format!("{}\u{2033}", num(x)));
        x += 6.0;
    }
    let mut y = 0.0;
    while y <= table.depth + 1e-9 {
        let (px, py) = table.at(0.0, y);
        w.text((px - 0.2, py + 0.14), &[("text-anchor", "end")], &format!("{}\u{2033}", num(y)));
        y += 6.0;
    }
    // The bar: 100-yard blocks (4") up to 300 yards, or less on a narrow table.
    let block = 100.0 / yards_per_inch;
    let blocks = ((table.width / block).floor() as usize).clamp(1, 3);
    let (left, top) = (table.left, table.top + table.depth + 1.2);
    for i in 0..blocks {
        let x = left + i as f64 * block;
        w.empty(
            "rect",
            &[
                ("x", &num(x)),
                ("y", &num(top)),
                ("width", &num(block)),
                ("height", "0.25"),
                ("fill", if i % 2 == 0 { "#333333" } else { "#ffffff" }),
                ("stroke", "#333333"),
                ("stroke-width", "0.04"),
            ],
        );
    }
    for i in 0..=blocks {
        let yards = i as f64 * 100.0;
        let label = if i == blocks { format!("{} yards", num(yards)) } else { num(yards) };
        w.text((left + i as f64 * block, top + 0.75), &[("text-anchor", "middle")], &label);
    }
    let (width_yards, depth_yards) = (table.width * yards_per_inch, table.depth * yards_per_inch);
    w.text(
        (left + blocks as f64 * block + 2.0, top + 0.25),
        &[],
        &format!(
            "1\u{2033} = {} yards \u{b7} grid every inch, bold every 6\u{2033} ({} yards) \u{b7} table {}\u{2033} \u{d7} {}\u{2033} = {} \u{d7} {} yards",
            num(yards_per_inch),
            num(6.0 * yards_per_inch),
            num(table.width),
            num(table.depth),
            thousands(width_yards),
            thousands(depth_yards)
        ),
    );
    w.close("g");
    // North is up.
    let (nx, ny) = (table.left + table.width - 0.6, table.top - 0.4);
    w.open("g", &[("id", "north")]);
    w.path(
        &draw::d(&[(nx, ny - 1.6), (nx + 0.35, ny - 0.5), (nx, ny - 0.75), (nx - 0.35, ny - 0.5)], true),
        &[("fill", "#333333")],
    );
    w.text((nx, ny - 1.75), &[("font-size", "0.55"), ("text-anchor", "middle"), ("fill", "#333333")], "N");
    w.close("g");
}

fn title(w: &mut Writer, state: &MapState, options: &RenderOptions, table: Page) {
    w.open("g", &[("id", "title")]);
    w.text((table.left, 1.2), &[("font-size", "1")], &state.title);
    if !state.subtitle.is_empty() {
        w.text((table.left, 2.0), &[("font-size", "0.55"), ("fill", "#444444")], &state.subtitle);
    }
    w.text((table.left, 2.75), &[("font-size", "0.5"), ("fill", "#444444")], &moment_line(state, options));
    w.close("g");
}

/// 1200 as "1,200", rounded to the whole number.
fn thousands(value: f64) -> String {
    dotc_lang::names::thousands(value.round() as i64)
}
