//! The roster as landscape pages of SVG, for the PDF. Each side starts a page; a brigade's
//! heading is never left alone at a page's foot; a unit takes two lines, the first with its
//! stand boxes to strike. Text too long for its column is cut with an ellipsis, measured with
//! the map labels' widths (never narrower than the embedded font's). What each line says is
//! written by the text form's helpers in `super`.

use dotc_runtime::render::labels::text_width;
use dotc_runtime::render::svg::{escape, num};
use dotc_runtime::roster::{BrigadeSheet, Sheet, SideSheet, UnitRow};

use super::Paper;

const MARGIN: f64 = 32.0;
/// A unit's three lines.
const UNIT_HEIGHT: f64 = 35.0;
const BRIGADE_HEIGHT: f64 = 40.0;
/// What a page's head takes: the scenario, the side and the facts under them.
const HEAD_HEIGHT: f64 = 54.0;
const FOOT: f64 = 18.0;
const INK: &str = "#111";
const GREY: &str = "#555";

/// One block of a page: a side's commanders, a brigade's heading or a unit.
enum Block<'s> {
    Leaders(&'s SideSheet),
    Brigade(&'s BrigadeSheet),
    /// The heading of the units under a side's own command.
    SideUnits,
    Unit(&'s UnitRow),
}

impl Block<'_> {
    fn height(&self) -> f64 {
        match self {
            Block::Leaders(side) => 13.0 * side.commanders.len() as f64 + 6.0,
            Block::Brigade(b) => BRIGADE_HEIGHT + 11.0 * b.leaders.len().saturating_sub(1) as f64,
            Block::SideUnits => 20.0,
            Block::Unit(_) => UNIT_HEIGHT,
        }
    }
}

/// Every page of the sheet, as SVG documents of the paper's size in points.
pub(super) fn pages(sheet: &Sheet, paper: Paper) -> Vec<String> {
    let (width, height) = paper.points();
    let bottom = height - MARGIN - FOOT;
    // First the blocks of each page, then the pages drawn (the foot needs their count).
    let mut laid: Vec<(&SideSheet, Vec<Block<'_>>)> = Vec::new();
    for side in &sheet.sides {
        let mut blocks: Vec<Block<'_>> = Vec::new();
        if !side.commanders.is_empty() {
            blocks.push(Block::Leaders(side));
        }
        for b in &side.brigades {
            blocks.push(Block::Brigade(b));
            blocks.extend(b.units.iter().map(Block::Unit));
        }
        if !side.units.is_empty() {
            blocks.push(Block::SideUnits);
            blocks.extend(side.units.iter().map(Block::Unit));
        }
        let mut page: Vec<Block<'_>> = Vec::new();
        let mut y = MARGIN + HEAD_HEIGHT;
        let mut blocks = blocks.into_iter().peekable();
        while let Some(block) = blocks.next() {
            // A heading goes with its first unit.
            let keep = match (&block, blocks.peek()) {
                (Block::Brigade(_) | Block::SideUnits, Some(next)) => next.height(),
                _ => 0.0,
            };
            if y + block.height() + keep > bottom && !page.is_empty() {
                laid.push((side, std::mem::take(&mut page)));
                y = MARGIN + HEAD_HEIGHT;
            }
            y += block.height();
            page.push(block);
        }
        laid.push((side, page));
    }
    let count = laid.len();
    laid.iter()
        .enumerate()
        .map(|(i, (side, blocks))| draw(sheet, side, blocks, (width, height), (i + 1, count)))
        .collect()
}

fn draw(
    sheet: &Sheet,
    side: &SideSheet,
    blocks: &[Block<'_>],
    (width, height): (f64, f64),
    (n, of): (usize, usize),
) -> String {
    let mut p = Page { out: String::new(), right: width - MARGIN };
    p.out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" \
         font-family=\"DejaVu Sans\">\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n",
        num(width),
        num(height),
        num(width),
        num(height)
    ));
    let full = p.right - MARGIN;
    p.text(MARGIN, MARGIN + 13.0, 13.0, INK, &sheet.scenario, full);
    p.text(MARGIN, MARGIN + 28.0, 11.0, INK, &super::side_line(side), full);
    p.text(MARGIN, MARGIN + 41.0, 8.5, GREY, &super::facts(sheet), full);
    let mut y = MARGIN + HEAD_HEIGHT;
    for block in blocks {
        match block {
            Block::Leaders(side) => {
                for (i, c) in side.commanders.iter().enumerate() {
                    p.text(MARGIN, y + 10.0 + 13.0 * i as f64, 9.0, INK, &super::leader(c), full);
                }
            }
            Block::Brigade(b) => brigade(&mut p, b, y, full),
            Block::SideUnits => {
                p.text(MARGIN, y + 14.0, 11.0, INK, "Under the side\u{2019}s own command", full);
            }
            Block::Unit(u) => unit(&mut p, u, y),
        }
        y += block.height();
    }
    let foot = format!(
        "Strike a box as a stand is lost; the round box is the micro-hit (RULE-05-3.3). H: Hesitant, B: Broken (Ch16 8.2).   Page {n} of {of}"
    );
    p.text(MARGIN, height - MARGIN, 7.0, GREY, &foot, full);
    p.out.push_str("</svg>\n");
    p.out
}

fn brigade(p: &mut Page, b: &BrigadeSheet, y: f64, full: f64) {
    p.line(y + 3.0, 1.0);
    p.text(MARGIN, y + 16.0, 11.0, INK, &b.name, full);
    let mut line = y + 16.0;
    for l in &b.leaders {
        line += 11.0;
        p.text(MARGIN + 8.0, line, 8.0, GREY, &super::leader(l), full - 8.0);
    }
    // The clock: its text, then a box a stand up to Broken, where they fit on the line (a
    // brigade that breaks only at 40 stands lost is tallied from the text alone).
    let clock = super::clock(b);
    let boxed = if b.broken_at <= 40 { b.broken_at } else { 0 };
    let boxes_width = (boxed as f64) * 10.0 + 12.0;
    let room = (full - 8.0 - boxes_width - 6.0).max(full / 2.0);
    let written = p.text(MARGIN + 8.0, line + 11.0, 8.0, GREY, &clock, room);
    let mut x = MARGIN + 8.0 + written + 6.0;
    for n in 1..=boxed {
        let mark = if n == b.hesitant_at {
            Some("H")
        } else if n == b.broken_at {
            Some("B")
        } else {
            None
        };
        p.boxed(x, line + 4.0, 7.0, n <= b.losses, false);
        x += 9.0;
        if let Some(mark) = mark {
            x += p.text(x, line + 11.0, 7.0, INK, mark, 10.0) + 1.0;
        }
        x += 1.0;
    }
}

fn unit(p: &mut Page, u: &UnitRow, y: f64) {
    let top = y + 11.0;
    p.line(y + 1.0, 0.3);
    let end = p.right - MARGIN;
    // First line: name, stand boxes and micro-hit, strength, where it starts.
    p.text(MARGIN, top, 9.5, INK, &u.name, 195.0);
    // A box a stand, as many as the column holds (30 at the least size); past them, the count.
    const MOST: u32 = 30;
    let n = u.starting_stands.clamp(1, MOST) as f64;
    let size = (185.0 / n - 2.0).clamp(4.0, 8.0);
    let mut x = MARGIN + 200.0;
    for stand in 1..=u.starting_stands.min(MOST) {
        p.boxed(x, top - size + 1.0, size, stand > u.stands, false);
        x += size + 2.0;
    }
    p.boxed(x + 2.0, top - size + 1.0, size, false, true);
    if u.starting_stands > MOST {
        p.text(x + size + 6.0, top, 7.0, GREY, &format!("+{}", u.starting_stands - MOST), 20.0);
    }
    p.text(MARGIN + 390.0, top, 8.0, INK, &super::strength(u), 100.0);
    p.text(MARGIN + 495.0, top, 7.0, INK, &super::start(u), end - 495.0);
    // Second line: quality and formation, and health; third: weapon, traits and markers.
    let second = top + 10.0;
    p.text(MARGIN + 8.0, second, 7.0, GREY, &super::quality(u), 340.0);
    p.text(MARGIN + 360.0, second, 7.0, GREY, &super::health(u), end - 360.0);
    let third = second + 9.0;
    p.text(MARGIN + 8.0, third, 7.0, GREY, &super::weapon(u), 470.0);
    p.text(MARGIN + 485.0, third, 7.0, GREY, &super::extras(u), end - 485.0);
}

/// A page being drawn, in points from its top left.
struct Page {
    out: String,
    /// The right margin's x.
    right: f64,
}

impl Page {
    /// Text at (x, baseline y) in `room` points: set smaller, down to 80% of `size` (and never
    /// under 6 points), where it is too long, and only then cut with an ellipsis; its drawn
    /// width.
    fn text(&mut self, x: f64, y: f64, size: f64, fill: &str, text: &str, room: f64) -> f64 {
        let natural = text_width(text, size);
        let size =
            if natural > room { (size * room / natural).max(size * 0.8).max(6.0).min(size) } else { size };
        let fitted = fit(text, size, room);
        self.out.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{fill}\">{}</text>\n",
            num(x),
            num(y),
            num(size),
            escape(&fitted)
        ));
        text_width(&fitted, size)
    }

    /// A box at (x, y) of side `size`: struck through when `struck`, round for the micro-hit.
    fn boxed(&mut self, x: f64, y: f64, size: f64, struck: bool, round: bool) {
        let radius = if round { size / 2.0 } else { 0.0 };
        self.out.push_str(&format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"none\" stroke=\"{INK}\" stroke-width=\"0.7\"/>\n",
            num(x),
            num(y),
            num(size),
            num(size),
            num(radius)
        ));
        if struck {
            self.out.push_str(&format!(
                "<path d=\"M{} {}L{} {}\" stroke=\"{INK}\" stroke-width=\"0.9\"/>\n",
                num(x),
                num(y + size),
                num(x + size),
                num(y)
            ));
        }
    }

    /// A rule across the page above a block.
    fn line(&mut self, y: f64, width: f64) {
        self.out.push_str(&format!(
            "<path d=\"M{} {}H{}\" stroke=\"#999\" stroke-width=\"{}\"/>\n",
            num(MARGIN),
            num(y),
            num(self.right),
            num(width)
        ));
    }
}

/// `text` as much as fits in `room` points at `size`, cut at a character with an ellipsis.
fn fit(text: &str, size: f64, room: f64) -> String {
    if text_width(text, size) <= room {
        return text.to_string();
    }
    let mut cut = String::new();
    for c in text.chars() {
        cut.push(c);
        if text_width(&cut, size) + text_width("\u{2026}", size) > room {
            cut.pop();
            break;
        }
    }
    format!("{}\u{2026}", cut.trim_end())
}
