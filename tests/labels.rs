//! Issue 21: "Map snapshots with no overlapping labels (a test checks label boxes in the SVG do
//! not intersect)" and "every marker inside the frame".
//!
//! Every shipped scenario's and game log's map, the tutorial's log at several moments (with
//! the moves and fire of the phase before each) and a map with one unit's arcs and lines of
//! sight are drawn by `dotc render`; each SVG is then read back as a reader would see it. A
//! label's box is measured from its own `<text>` element (x, y, font-size, text-anchor,
//! font-weight, and its `rotate(...)` transform) by laying the text out with usvg in the font
//! the PNG maps embed, so the check trusts nothing of the placement code's own estimate. No two
//! boxes may intersect, and every box, objective, reinforcement ring and unit marker must lie
//! inside the table's frame.

use std::path::PathBuf;
use std::sync::Arc;

use resvg::usvg::{self, roxmltree};

mod common;

use common::{dotc, root, text};

type P = (f64, f64);

/// The room two labels' inked boxes keep between them: their white halos (0.12" strokes, half
/// of it outside the letters) may touch, not cover the other's letters.
const HALO: f64 = 0.03;

/// A label's box on the page: four corners, turned as the text is.
#[derive(Clone, Debug)]
struct LabelBox {
    text: String,
    corners: [P; 4],
}

/// The font of the maps' PNGs (assets/fonts/DejaVuSans.ttf), as `dotc render` loads it.
fn font_options() -> usvg::Options<'static> {
    let mut fonts = usvg::fontdb::Database::new();
    fonts.load_font_data(std::fs::read(root().join("assets/fonts/DejaVuSans.ttf")).expect("the font"));
    fonts.set_sans_serif_family("DejaVu Sans");
    usvg::Options {
        font_family: "DejaVu Sans".to_string(),
        fontdb: Arc::new(fonts),
        ..usvg::Options::default()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The inked box of one `<text>` element laid out alone (its glyphs as paths), unturned, in
/// page inches.
fn measure(options: &usvg::Options<'_>, node: roxmltree::Node<'_, '_>) -> ((f64, f64), (f64, f64)) {
    let attr = |name: &str| node.attribute(name).unwrap_or_default();
    let num = |name: &str| attr(name).parse::<f64>().unwrap_or_else(|_| panic!("{name} of {node:?}"));
    // The size, anchor and weight may be the element's or a group's around it.
    let inherited =
        |name: &str| node.ancestors().find_map(|n| n.attribute(name)).map(str::to_string).unwrap_or_default();
    let label = node.text().unwrap_or_default();
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"1000\" viewBox=\"0 0 1000 1000\">\
         <text x=\"{}\" y=\"{}\" font-family=\"DejaVu Sans\" font-size=\"{}\" text-anchor=\"{}\" font-weight=\"{}\">{}</text></svg>",
        num("x"),
        num("y"),
        inherited("font-size"),
        match inherited("text-anchor").as_str() {
            "" => "start".to_string(),
            anchor => anchor.to_string(),
        },
        match inherited("font-weight").as_str() {
            "" => "normal".to_string(),
            weight => weight.to_string(),
        },
        escape(label)
    );
    let tree = usvg::Tree::from_str(&svg, options).expect("a one-text SVG");
    // The inked glyphs' box (the text as paths), not the line's ascent-to-descent box.
    let Some(usvg::Node::Text(laid_out)) = tree.root().children().first() else {
        panic!("no text laid out for {label:?}")
    };
    let bbox = laid_out.flattened().abs_bounding_box();
    ((f64::from(bbox.left()), f64::from(bbox.top())), (f64::from(bbox.right()), f64::from(bbox.bottom())))
}

/// `rotate(a cx cy)` of a transform, if it has one.
fn rotation(node: roxmltree::Node<'_, '_>) -> Option<(f64, f64, f64)> {
    let transform = node.attribute("transform")?;
    let inner = transform.strip_prefix("rotate(")?.strip_suffix(')')?;
    let v: Vec<f64> =
        inner.split([' ', ',']).filter(|s| !s.is_empty()).map(|s| s.parse().expect("a number")).collect();
    assert_eq!(v.len(), 3, "rotate(a cx cy), not {transform}");
    Some((v[0], v[1], v[2]))
}

/// Every label on the table: the `<text>` elements of the table's label groups.
fn labels(options: &usvg::Options<'_>, xml: &roxmltree::Document<'_>) -> Vec<LabelBox> {
    let groups = ["labels", "unit-labels", "badge-labels"];
    xml.descendants()
        .filter(|n| n.has_tag_name("text"))
        .filter(|n| n.ancestors().any(|a| a.attribute("id").is_some_and(|id| groups.contains(&id))))
        .map(|n| {
            let ((x0, y0), (x1, y1)) = measure(options, n);
            let mut corners = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)];
            if let Some((angle, cx, cy)) = rotation(n) {
                let (sin, cos) = angle.to_radians().sin_cos();
                corners = corners.map(|(x, y)| {
                    let (dx, dy) = (x - cx, y - cy);
                    (cx + dx * cos - dy * sin, cy + dx * sin + dy * cos)
                });
            }
            LabelBox { text: n.text().unwrap_or_default().to_string(), corners }
        })
        .collect()
}

/// Whether two convex quadrilaterals, each grown by `grow`, overlap: no edge of either
/// separates them.
fn intersect(a: &[P; 4], b: &[P; 4], grow: f64) -> bool {
    for quad in [a, b] {
        for i in 0..4 {
            let (p, q) = (quad[i], quad[(i + 1) % 4]);
            let len = (q.0 - p.0).hypot(q.1 - p.1);
            if len == 0.0 {
                continue;
            }
            let axis = ((p.1 - q.1) / len, (q.0 - p.0) / len);
            let span = |v: &[P; 4]| {
                let dots = v.map(|c| c.0 * axis.0 + c.1 * axis.1);
                (
                    dots.iter().copied().fold(f64::INFINITY, f64::min),
                    dots.iter().copied().fold(f64::NEG_INFINITY, f64::max),
                )
            };
            let ((a0, a1), (b0, b1)) = (span(a), span(b));
            if a1 + grow <= b0 - grow || b1 + grow <= a0 - grow {
                return false;
            }
        }
    }
    true
}

/// The box of a path's `d` as this map writes them: `M`, `L`, `Z` and the half-circle arcs
/// (`a r r 0 1 0 dx dy`) that make its circles.
fn path_bounds(d: &str) -> (P, P) {
    let mut tokens: Vec<String> = Vec::new();
    let mut current = String::new();
    for c in d.chars() {
        if c.is_ascii_alphabetic() {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
            tokens.push(c.to_string());
        } else if c == ' ' || c == ',' {
            if !current.is_empty() {
                tokens.push(std::mem::take(&mut current));
            }
        } else if c == '-' && !current.is_empty() && !current.ends_with('e') {
            tokens.push(std::mem::take(&mut current));
            current.push(c);
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        tokens.push(current);
    }
    let (mut min, mut max) = ((f64::INFINITY, f64::INFINITY), (f64::NEG_INFINITY, f64::NEG_INFINITY));
    let mut add = |p: P| {
        min = (min.0.min(p.0), min.1.min(p.1));
        max = (max.0.max(p.0), max.1.max(p.1));
    };
    let mut at = (0.0, 0.0);
    let mut i = 0;
    let n = |i: usize| tokens[i].parse::<f64>().unwrap_or_else(|_| panic!("a number in {d}"));
    while i < tokens.len() {
        match tokens[i].as_str() {
            "M" | "L" => {
                at = (n(i + 1), n(i + 2));
                add(at);
                i += 3;
            }
            "Z" => i += 1,
            "a" => {
                let r = n(i + 1);
                let end = (at.0 + n(i + 6), at.1 + n(i + 7));
                let centre = ((at.0 + end.0) / 2.0, (at.1 + end.1) / 2.0);
                add((centre.0 - r, centre.1 - r));
                add((centre.0 + r, centre.1 + r));
                at = end;
                i += 8;
            }
            other => panic!("a path command this test does not read: {other} in {d}"),
        }
    }
    (min, max)
}

/// Checks one map: no two labels intersect, and every label and marker is inside the frame.
fn check_map(options: &usvg::Options<'_>, name: &str, svg: &str) -> usize {
    let xml = roxmltree::Document::parse(svg).expect("well-formed XML");
    let table = xml.descendants().find(|n| n.attribute("id") == Some("table")).expect("the table");
    let get = |n: &str| table.attribute(n).and_then(|v| v.parse::<f64>().ok()).expect("a number");
    let (fx0, fy0) = (get("x"), get("y"));
    let (fx1, fy1) = (fx0 + get("width"), fy0 + get("height"));
    let inside = |p: P| p.0 >= fx0 - 1e-6 && p.0 <= fx1 + 1e-6 && p.1 >= fy0 - 1e-6 && p.1 <= fy1 + 1e-6;

    let boxes = labels(options, &xml);
    assert!(!boxes.is_empty(), "{name}: no labels on the table");
    for (i, a) in boxes.iter().enumerate() {
        assert!(
            a.corners.iter().all(|c| inside(*c)),
            "{name}: \"{}\" runs out of the frame: {:?}",
            a.text,
            a.corners
        );
        for b in &boxes[i + 1..] {
            assert!(
                !intersect(&a.corners, &b.corners, HALO),
                "{name}: \"{}\" {:?} overlaps \"{}\" {:?}",
                a.text,
                a.corners,
                b.text,
                b.corners
            );
        }
    }
    let marked = ["objective", "arrival", "marker"];
    let mut markers = 0;
    for node in xml.descendants().filter(|n| n.attribute("class").is_some_and(|c| marked.contains(&c))) {
        for path in node.descendants().filter(|n| n.has_tag_name("path")) {
            let (min, max) = path_bounds(path.attribute("d").expect("a path"));
            assert!(
                inside(min) && inside(max),
                "{name}: a {} outside the frame: {min:?} {max:?}",
                node.attribute("class").unwrap_or_default()
            );
            markers += 1;
        }
    }
    markers
}

/// Every shipped scenario and game log, `scenarios/*/*.dotc` (campaign files have no table of
/// their own).
fn shipped() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = common::dotc_files_under(vec![root().join("scenarios")])
        .into_iter()
        .filter(|p| {
            std::fs::read_to_string(p)
                .is_ok_and(|t| !t.lines().any(|l| l.trim_start().starts_with("campaign \"")))
        })
        .collect();
    files.sort();
    files
}

fn render(dir: &std::path::Path, args: &[&str]) -> String {
    let out = dir.join("map.svg");
    let mut all: Vec<&str> = vec!["render"];
    all.extend(args);
    all.extend(["-o", out.to_str().expect("utf-8"), "--force"]);
    let run = dotc(&all, &root());
    assert!(run.status.success(), "{args:?}: {}", text(&run.stderr));
    std::fs::read_to_string(out).expect("the map")
}

#[test]
fn issue_21_no_two_labels_of_a_map_overlap_and_all_lies_inside_the_frame() {
    let options = font_options();
    let dir = tempfile::tempdir().expect("temp dir");
    let mut maps = 0;
    let mut markers = 0;
    for path in shipped() {
        let name = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        let svg = render(dir.path(), &[path.to_str().expect("utf-8")]);
        markers += check_map(&options, &name, &svg);
        maps += 1;
    }
    let game = "scenarios/tutorial/fence-line-game.dotc";
    for at in ["turn 1 maneuver", "turn 2 fire", "turn 3 maneuver", "turn 3 fire", "turn 4"] {
        let svg = render(dir.path(), &[game, "--at", at]);
        markers += check_map(&options, &format!("{game} --at {at}"), &svg);
        maps += 1;
    }
    let focus = render(dir.path(), &["scenarios/tutorial/fence-line.dotc", "--unit", "19th Maine"]);
    markers += check_map(&options, "the 19th Maine's arcs and sight", &focus);
    assert!(maps >= 10, "{maps} maps");
    assert!(markers > 10, "{markers} markers: the objectives, rings and markers were not found");
}

/// The HTML replay's map at every step of the tutorial game, as the page puts it together (its
/// ground and frame, the step's forces and the step's marks): the step's notes ("-1 stand",
/// "micro-hit", "+ Disorder") are placed clear of every unit's and the ground's labels, and
/// inside the frame. (A unit's label and the ground's are placed apart too, but not always: a
/// unit come on at the table's edge by its arrival ring may have no free place, as the
/// reinforcement's ring and label stay on the page's ground at every step.)
#[test]
fn issue_21_every_step_of_the_html_replay_has_its_notes_clear_of_the_labels() {
    let options = font_options();
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("game.html");
    let run = dotc(
        &["replay", "scenarios/tutorial/fence-line-game.dotc", "--html", out.to_str().expect("utf-8")],
        &root(),
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    let page = std::fs::read_to_string(&out).expect("the page");
    let between = |from: &str, to: &str| {
        let start = page.find(from).unwrap_or_else(|| panic!("no {from}")) + from.len();
        let end = start + page[start..].find(to).unwrap_or_else(|| panic!("no {to}"));
        page[start..end].to_string()
    };
    let map = between("<section id=\"map\">\n", "</section>");
    let data: serde_json::Value =
        serde_json::from_str(&between("<script type=\"application/json\" id=\"dotc-data\">", "</script>"))
            .expect("the page's data");
    let lines = data["lines"].as_array().expect("lines");
    let (mut steps, mut badges) = (0, 0);
    for step in data["steps"].as_array().expect("steps") {
        let index = |key: &str| step[key].as_u64().expect("an index") as usize;
        let forces: Vec<&str> = data["forces"][index("forces")]
            .as_array()
            .expect("a forces layer")
            .iter()
            .map(|l| lines[l.as_u64().expect("a line") as usize].as_str().expect("text"))
            .collect();
        let action = data["actions"][index("action")].as_str().expect("an action layer");
        badges += action.matches("class=\"badge\"").count();
        let svg = map
            .replacen("<g id=\"forces\"></g>", &format!("<g id=\"forces\">{}</g>", forces.join("\n")), 1)
            .replacen("<g id=\"action\"></g>", &format!("<g id=\"action\">{action}</g>"), 1);
        let name = format!("the HTML replay at {}", step["id"]);
        let xml = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let boxes = labels(&options, &xml);
        // Every note wherever it is drawn, measured as the labels are.
        let notes: Vec<LabelBox> = xml
            .descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("class") == Some("badge"))
            .map(|n| {
                let ((x0, y0), (x1, y1)) = measure(&options, n);
                LabelBox {
                    text: n.text().unwrap_or_default().to_string(),
                    corners: [(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
                }
            })
            .collect();
        let table = xml.descendants().find(|n| n.attribute("id") == Some("table")).expect("the table");
        let get = |n: &str| table.attribute(n).and_then(|v| v.parse::<f64>().ok()).expect("a number");
        let (fx0, fy0) = (get("x"), get("y"));
        let (fx1, fy1) = (fx0 + get("width"), fy0 + get("height"));
        for note in &notes {
            assert!(
                note.corners.iter().all(|c| c.0 >= fx0 - 1e-6
                    && c.0 <= fx1 + 1e-6
                    && c.1 >= fy0 - 1e-6
                    && c.1 <= fy1 + 1e-6),
                "{name}: the note \"{}\" runs out of the frame: {:?}",
                note.text,
                note.corners
            );
            let same = |b: &LabelBox| b.text == note.text && b.corners == note.corners;
            for other in boxes.iter().chain(&notes).filter(|b| !same(b)) {
                assert!(
                    !intersect(&note.corners, &other.corners, HALO),
                    "{name}: the note \"{}\" {:?} overlaps \"{}\" {:?}",
                    note.text,
                    note.corners,
                    other.text,
                    other.corners
                );
            }
        }
        steps += 1;
    }
    assert!(steps > 30, "{steps} steps");
    assert!(badges > 10, "{badges} notes: the steps' notes were not found");
}

/// The check itself: two labels written at one place are found overlapping, and one written
/// past the table's edge is found outside it.
#[test]
fn the_check_finds_overlapping_labels_and_labels_outside_the_frame() {
    let options = font_options();
    let page = |texts: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 40 30\"><rect id=\"table\" x=\"1\" y=\"1\" width=\"30\" height=\"20\"/>\
             <g id=\"labels\">{texts}</g></svg>"
        )
    };
    let fails = |name: &str, svg: &str| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_map(&options, name, svg))).is_err()
    };
    let clash = page(
        "<text x=\"5\" y=\"5\" font-size=\"0.45\">Miller's Cornfield</text>\
         <text x=\"6\" y=\"5.2\" font-size=\"0.45\">The Cornfield (2 VP)</text>",
    );
    assert!(fails("clash", &clash));
    let apart = page(
        "<text x=\"5\" y=\"5\" font-size=\"0.45\">Miller's Cornfield</text>\
         <text x=\"5\" y=\"6\" font-size=\"0.45\">The Cornfield (2 VP)</text>",
    );
    assert!(!fails("apart", &apart));
    // A turned name runs down the page: clear of a name its upright box would cover, over one
    // it runs through.
    let road = "<text x=\"5\" y=\"5\" font-size=\"0.45\" transform=\"rotate(90 5 5)\">Emmitsburg Road</text>";
    assert!(!fails(
        "beside",
        &page(&format!("{road}<text x=\"8\" y=\"5.3\" font-size=\"0.45\">Sherfy</text>"))
    ));
    assert!(fails(
        "across",
        &page(&format!("{road}<text x=\"4.6\" y=\"8\" font-size=\"0.45\">Sherfy</text>"))
    ));
    let out = page("<text x=\"29\" y=\"5\" font-size=\"0.45\">Culp's Hill</text>");
    assert!(fails("out", &out));
}
