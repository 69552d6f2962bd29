//! The SVG text itself: numbers, escaping, the page's coordinates and a small element writer.
//!
//! Deterministic by construction: every number goes through [`num`] (two decimals, no trailing
//! zeros, never `-0`), and elements are written in the order they are asked for.

use std::fmt::Write;

use geo::{Coord, LineString, Polygon};

/// A number as the SVG writes it: rounded to 2 decimals, without trailing zeros, `0` for
/// anything that rounds to zero (never `-0`), `0` for a number that is not finite.
pub fn num(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_string();
    }
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        return "0".to_string();
    }
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    text.to_string()
}

/// Text made safe for an XML attribute or element: `& < > " '` escaped; control characters
/// other than tab, newline and return (which XML 1.0 forbids) dropped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// Where the table lies on the page. The page's units are inches (the root `viewBox`), y grows
/// down the page; the table's y grows north, so it is flipped here and nowhere else.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Page {
    /// The page position of the table's south-west corner's x, and its north edge's y.
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub depth: f64,
}

impl Page {
    /// The page position of a table position.
    pub fn at(&self, x: f64, y: f64) -> (f64, f64) {
        (self.left + x, self.top + (self.depth - y))
    }

    pub fn coord(&self, c: Coord<f64>) -> (f64, f64) {
        self.at(c.x, c.y)
    }

    /// A path through table positions (`M x y L x y ...`), closed with `Z` if asked.
    pub fn path(&self, points: impl IntoIterator<Item = Coord<f64>>, close: bool) -> String {
        let mut d = String::new();
        for (i, c) in points.into_iter().enumerate() {
            let (x, y) = self.coord(c);
            let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, num(x), num(y));
        }
        if close && !d.is_empty() {
            d.push('Z');
        }
        d
    }

    pub fn line_path(&self, line: &LineString<f64>) -> String {
        self.path(line.coords().copied(), false)
    }

    /// A polygon's outline (its holes too), each ring closed.
    pub fn polygon_path(&self, polygon: &Polygon<f64>) -> String {
        let ring = |r: &LineString<f64>| {
            let n = r.0.len();
            // geo closes rings by repeating the first point; `Z` says the same.
            let open = if n > 1 && r.0[0] == r.0[n - 1] { n - 1 } else { n };
            self.path(r.0[..open].iter().copied(), true)
        };
        let mut d = ring(polygon.exterior());
        for hole in polygon.interiors() {
            d.push_str(&ring(hole));
        }
        d
    }
}

/// Attributes as written: `name="value"` pairs, values escaped.
pub type Attrs<'a> = &'a [(&'a str, &'a str)];

/// An SVG document being written, one element a line.
#[derive(Default)]
pub struct Writer {
    out: String,
    depth: usize,
}

impl Writer {
    pub fn new() -> Writer {
        Writer::default()
    }

    fn indent(&mut self) {
        for _ in 0..self.depth {
            self.out.push(' ');
        }
    }

    fn attrs(&mut self, attrs: Attrs<'_>) {
        for (name, value) in attrs {
            let _ = write!(self.out, " {name}=\"{}\"", escape(value));
        }
    }

    /// `<tag attrs>`, to be closed by [`Writer::close`].
    pub fn open(&mut self, tag: &str, attrs: Attrs<'_>) {
        self.indent();
        self.out.push('<');
        self.out.push_str(tag);
        self.attrs(attrs);
        self.out.push_str(">\n");
        self.depth += 1;
    }

    pub fn close(&mut self, tag: &str) {
        self.depth = self.depth.saturating_sub(1);
        self.indent();
        let _ = writeln!(self.out, "</{tag}>");
    }

    /// `<tag attrs/>`.
    pub fn empty(&mut self, tag: &str, attrs: Attrs<'_>) {
        self.indent();
        self.out.push('<');
        self.out.push_str(tag);
        self.attrs(attrs);
        self.out.push_str("/>\n");
    }

    /// `<tag attrs>text</tag>`, the text escaped.
    pub fn element(&mut self, tag: &str, attrs: Attrs<'_>, text: &str) {
        self.indent();
        self.out.push('<');
        self.out.push_str(tag);
        self.attrs(attrs);
        let _ = writeln!(self.out, ">{}</{tag}>", escape(text));
    }

    /// `<text x y>` at a page position.
    pub fn text(&mut self, (x, y): (f64, f64), attrs: Attrs<'_>, text: &str) {
        let (x, y) = (num(x), num(y));
        let mut all: Vec<(&str, &str)> = vec![("x", &x), ("y", &y)];
        all.extend_from_slice(attrs);
        self.element("text", &all, text);
    }

    /// A `<path>` with `d` and more attributes; nothing when `d` is empty.
    pub fn path(&mut self, d: &str, attrs: Attrs<'_>) {
        if d.is_empty() {
            return;
        }
        let mut all: Vec<(&str, &str)> = vec![("d", d)];
        all.extend_from_slice(attrs);
        self.empty("path", &all);
    }

    /// A raw line the caller wrote (the XML declaration, a comment).
    pub fn raw(&mut self, line: &str) {
        self.indent();
        self.out.push_str(line);
        self.out.push('\n');
    }

    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_at_most_two_decimals_and_no_negative_zero() {
        assert_eq!(num(19.5), "19.5");
        assert_eq!(num(20.0), "20");
        assert_eq!(num(1.0 / 3.0), "0.33");
        assert_eq!(num(2.675_000_1), "2.68");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(-1.25), "-1.25");
        assert_eq!(num(f64::NAN), "0");
        assert_eq!(num(1e-12), "0");
    }

    #[test]
    fn names_with_quotes_apostrophes_and_markup_are_escaped() {
        assert_eq!(escape("Keedy’s Hill"), "Keedy’s Hill");
        assert_eq!(
            escape("O'Neil's \"Irish\" <Brigade> & co"),
            "O&apos;Neil&apos;s &quot;Irish&quot; &lt;Brigade&gt; &amp; co"
        );
        assert_eq!(escape("a\u{0}b\nc"), "ab c");
    }

    #[test]
    fn the_table_is_flipped_so_north_is_up() {
        let page = Page { left: 1.0, top: 2.0, width: 48.0, depth: 36.0 };
        // The south-west corner is at the bottom left of the table, the north-east at the top right.
        assert_eq!(page.at(0.0, 0.0), (1.0, 38.0));
        assert_eq!(page.at(48.0, 36.0), (49.0, 2.0));
        let square =
            Polygon::new(LineString::from(vec![(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 0.0)]), vec![]);
        assert_eq!(page.polygon_path(&square), "M1 38L2 38L2 37Z");
    }
}
