//! The map of the tutorial scenario, and of small scenarios written for one thing each.

use std::path::Path;

use dotc_lang::analysis::{Loader, analyze};
use dotc_lang::ast::Scenario;
use dotc_lang::library::RuleData;

use super::*;

struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, path: &Path) -> Result<String, String> {
        Err(format!("{} is not available", path.display()))
    }
}

fn scenario(path: &str, source: &str) -> (Scenario, RuleData) {
    let analysis = analyze(Path::new(path), source, &NoFiles);
    assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics);
    (analysis.document.scenario.expect("a scenario"), analysis.rule_data)
}

fn tables(data: &RuleData) -> crate::engine::tables::Tables {
    crate::engine::tables::Tables::from_rule_data(data).expect("complete rule data")
}

fn fence_line() -> (Battlefield, MapState) {
    let (scenario, data) =
        scenario("fence-line.dotc", include_str!("../../../scenarios/tutorial/fence-line.dotc"));
    (Battlefield::from_scenario(&scenario, &data), MapState::deployment(&scenario, &data, &tables(&data)))
}

/// A small scenario: these terrain lines and these units (inside `side union { ... }` and
/// `side confederate { ... }`).
fn small(terrain: &str, union: &str, confederate: &str) -> (Battlefield, MapState) {
    let source = format!(
        "scenario \"Small\" {{\n    turns 4\n    first_side union\n    table 48 x 36\n    terrain {{\n{terrain}\n    }}\n    \
         side union {{\n        edge west\n{union}\n    }}\n    side confederate {{\n        edge east\n{confederate}\n    }}\n}}\n"
    );
    let parsed = dotc_lang::parse(&source);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let scenario = parsed.document.scenario.expect("a scenario");
    let data = dotc_lang::stdlib();
    (Battlefield::from_scenario(&scenario, data), MapState::deployment(&scenario, data, &tables(data)))
}

fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}

#[test]
fn the_tutorial_map_has_every_stand_of_every_unit_on_the_table() {
    let (field, state) = fence_line();
    let svg = render_svg(&field, &state, &RenderOptions::default());
    let stands: u32 = state.units.iter().filter_map(|u| u.body.map(|b| b.stand_count())).sum();
    // 12th NJ 5, 19th Maine 5, Battery K 3, 20th CT 4, 150th PA 5, 6th LA 5, 9th LA 4, 50th GA 5,
    // 51st GA 4, 7th VA Cavalry 4; the 1st Vermont and Hart's battery are reinforcements.
    assert_eq!(stands, 44);
    assert_eq!(count(&svg, "class=\"stand\""), 44);
    assert_eq!(count(&svg, "class=\"unit\""), 10);
    for unit in state.units.iter().filter(|u| u.body.is_some()) {
        assert!(svg.contains(&format!("data-unit=\"{}\"", svg::escape(&unit.name))), "{}", unit.name);
    }
    // The reinforcements are listed, with when and where they arrive.
    assert!(svg.contains(">Hart’s Georgia Battery (Carrow’s Brigade)</text>"), "{svg}");
    assert!(svg.contains("arrives 10:30 at (47, 20)"));
    assert!(svg.contains("arrives turn 4 at (1, 30); markers: Low Ammunition"));
    // The title: name, date, start.
    assert!(svg.contains(">The Fence Line</text>"));
    assert!(svg.contains("9 July 1863 · from 10:00 · 8 turns of 15 min"));
}

#[test]
fn the_page_is_the_table_to_scale_with_north_up() {
    let (field, state) = fence_line();
    let options = RenderOptions { scale: 10.0, ..RenderOptions::default() };
    let page = layout(&field, &state, &options);
    assert_eq!((page.table.width, page.table.depth), (48.0, 36.0));
    let (w, h) = page.pixels(10.0);
    let svg = render_svg(&field, &state, &options);
    assert!(
        svg.contains(&format!("width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {} {}\"", page.width, page.height))
    );
    // The table rectangle is 48 x 36 page inches.
    assert!(svg.contains("id=\"table\" x=\"1.6\" y=\"3.6\" width=\"48\" height=\"36\""), "{svg}");
    // The objective "Ridenour Farm" at (25, 32) is near the top: page y = 3.6 + 36 - 32 = 7.6.
    assert_eq!(page.table.at(25.0, 32.0), (26.6, 7.6));
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let (field, state) = fence_line();
    let options = RenderOptions {
        focus: Some(Focus { unit: "19th Maine".into(), arcs: true, sight: true }),
        ..RenderOptions::default()
    };
    let a = render_svg(&field, &state, &options);
    let b = render_svg(&field, &state, &options);
    assert_eq!(a, b);
    // Every number has at most 2 decimals.
    let long = a
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .filter(|n| n.split('.').nth(1).is_some_and(|d| d.len() > 2))
        .collect::<Vec<_>>();
    assert!(long.is_empty(), "{long:?}");
    // No negative zero: a `-0` that starts a number and ends there.
    let bytes = a.as_bytes();
    let negative_zero = (0..bytes.len().saturating_sub(2)).any(|i| {
        bytes[i] == b'-'
            && bytes[i + 1] == b'0'
            && !bytes[i + 2].is_ascii_digit()
            && bytes[i + 2] != b'.'
            && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric())
    });
    assert!(!negative_zero);
}

#[test]
fn names_are_escaped() {
    let (field, state) = small(
        "        objective \"Dunker's <Church>\" at (24, 18) vp 1",
        "        regiment \"O'Kane's \\\"Irish\\\" & Co\" { stands 3 regular rifled_musket line at (10, 10) facing east }",
        "        regiment \"Rebs\" { stands 3 regular rifled_musket line at (30, 10) facing west }",
    );
    let svg = render_svg(&field, &state, &RenderOptions::default());
    assert!(svg.contains("Dunker&apos;s &lt;Church&gt; (1 VP)"), "{svg}");
    assert!(svg.contains("data-unit=\"O&apos;Kane&apos;s &quot;Irish&quot; &amp; Co\""), "{svg}");
    assert!(!svg.contains("<Church>"));
}

#[test]
fn every_terrain_kind_is_drawn_in_its_own_style() {
    let terrain = "\
        cornfield \"Corn\" polygon (2, 2) (8, 2) (8, 8) (2, 8)\n\
        ploughed_field \"Mud\" polygon (10, 2) (16, 2) (16, 8) (10, 8)\n\
        orchard \"Apples\" polygon (18, 2) (24, 2) (24, 8) (18, 8)\n\
        light_woods \"Copse\" polygon (26, 2) (32, 2) (32, 8) (26, 8)\n\
        dense_woods \"Thicket\" polygon (34, 2) (40, 2) (40, 8) (34, 8)\n\
        marsh \"Bog\" polygon (2, 10) (8, 10) (8, 16) (2, 16)\n\
        town \"Sharpsburg\" polygon (10, 10) (16, 10) (16, 16) (10, 16)\n\
        road \"Pike\" line (0, 20) (48, 20)\n\
        sunken_road \"Bloody Lane\" line (0, 22) (20, 22)\n\
        minor_stream \"Run\" line (30, 0) (30, 36) ford at (30, 10) bridge at (30, 20)\n\
        major_river \"Potomac\" line (46, 0) (46, 36)\n\
        rail_fence \"Rails\" line (2, 24) (12, 24)\n\
        stone_wall \"Wall\" line (2, 26) (12, 26)\n\
        hedge \"Hedge\" line (2, 28) (12, 28)\n\
        abatis \"Trees\" line (2, 30) (12, 30)\n\
        breastworks \"Works\" line (2, 32) (12, 32)\n\
        hill \"Ridge\" level 2 polygon (14, 24) (26, 24) (26, 34) (14, 34) crest (20, 24) (20, 34)\n\
        masonry_building \"Mill\" at (36, 30) size 2 x 2\n\
        objective \"Bridge\" at (30, 20) vp 2";
    let (field, state) = small(terrain, "", "");
    let svg = render_svg(&field, &state, &RenderOptions::default());
    for pattern in ["cornfield", "ploughed", "orchard", "light-woods", "dense-woods", "marsh", "town"] {
        assert!(svg.contains(&format!("<pattern id=\"{pattern}\"")), "{pattern}");
        assert!(svg.contains(&format!("fill=\"url(#{pattern})\"")), "{pattern}");
    }
    for name in [
        "Corn",
        "Mud",
        "Apples",
        "Copse",
        "Thicket",
        "Bog",
        "Sharpsburg",
        "Pike",
        "Bloody Lane",
        "Run",
        "Potomac",
        "Rails",
        "Wall",
        "Hedge",
        "Trees",
        "Works",
        "Ridge (level 2)",
        "Mill (holds 2)",
        "Bridge (2 VP)",
    ] {
        assert!(svg.contains(&format!(">{name}</text>")), "{name}");
    }
    // Each kind's title is in the legend.
    for title in [
        "Stone Wall",
        "Abatis (felled trees)",
        "Hedge / Brush Row",
        "Major River",
        "Sunken Road",
        "Ford",
        "Bridge",
    ] {
        assert!(svg.contains(&format!(">{title}</text>")), "{title}");
    }
    assert!(svg.contains(">Hill, level 2</text>"));
    assert!(svg.contains("Crest line"));
}

#[test]
fn markers_are_drawn_beside_their_unit_and_listed_in_the_legend() {
    let (field, state) = small(
        "",
        "        regiment \"Blue\" { stands 4 regular rifled_musket line at (10, 10) facing east markers disorder, gunsmoke, low_ammo }",
        "",
    );
    let svg = render_svg(&field, &state, &RenderOptions::default());
    let unit = svg
        .split("data-unit=\"Blue\"")
        .nth(1)
        .and_then(|s| s.split("<g id=\"labels\"").next())
        .expect("the unit's group");
    // Disorder: a D; Low Ammo: an A; the smoke cloud is the first thing in the group.
    assert!(unit.contains(">D</text>") && unit.contains(">A</text>"), "{unit}");
    assert!(unit.contains("fill=\"#9a9a9a\""), "{unit}");
    for title in ["Disorder", "Gunsmoke (1″ in front)", "Low Ammo"] {
        assert!(svg.contains(&format!(">{title}</text>")), "{title}");
    }
}

#[test]
fn arcs_and_sight_of_a_chosen_unit() {
    // Blue faces east at (10, 18). Red A stands squarely ahead 10" away in the open; Red B,
    // 15.6" away, is seen only through 5" of dense wood (sight 3"); Red C is 37" away, out of
    // rifled musket range (20").
    let (field, state) = small(
        "        dense_woods \"Wood\" polygon (14, 21) (18, 21) (18, 32) (14, 32)",
        "        regiment \"Blue\" { stands 4 regular rifled_musket line at (10, 18) facing east }",
        "        regiment \"Red A\" { stands 4 regular rifled_musket line at (20, 18) facing west }\n        \
         regiment \"Red B\" { stands 4 regular rifled_musket line at (22, 30) facing west }\n        \
         regiment \"Red C\" { stands 4 regular rifled_musket line at (47, 4) facing west }",
    );
    let options = RenderOptions {
        focus: Some(Focus { unit: "Blue".into(), arcs: true, sight: true }),
        ..RenderOptions::default()
    };
    let svg = render_svg(&field, &state, &options);
    assert!(svg.contains("<g id=\"arcs\">"));
    assert!(svg.contains(">front arc</text>") && svg.contains(">left flank</text>"));
    assert_eq!(count(&svg, "class=\"sight-clear\""), 1, "{svg}");
    assert_eq!(count(&svg, "class=\"sight-blocked\""), 1, "{svg}");
    assert!(svg.contains(">10″ medium</text>"), "{svg}");
    assert!(svg.contains(">15.62″ Wood 4.9″ deep, sight 3″</text>"), "{svg}");
    // Without the flags nothing is drawn.
    let plain = render_svg(&field, &state, &RenderOptions::default());
    assert!(!plain.contains("id=\"arcs\"") && !plain.contains("sight-"));
}

#[test]
fn leaders_sit_on_their_bases_and_a_note_reaches_the_title() {
    let (field, state) = fence_line();
    let options = RenderOptions { note: Some("replay is not built yet".into()), ..RenderOptions::default() };
    let svg = render_svg(&field, &state, &options);
    assert_eq!(count(&svg, "class=\"commander\""), 2);
    assert_eq!(count(&svg, "class=\"brigadier\""), 4);
    assert!(svg.contains(">Deployment at 10:00 — replay is not built yet</text>"), "{svg}");
}

#[test]
fn a_scenario_without_a_table_still_gets_one_that_holds_everything() {
    let source = "scenario \"No table\" {\n    turns 4\n    first_side union\n    terrain {\n        road \"R\" line (0, 5) (40, 5)\n    }\n    side union {\n        edge west\n    }\n}\n";
    let parsed = dotc_lang::parse(source);
    let scenario = parsed.document.scenario.expect("a scenario");
    let data = dotc_lang::stdlib();
    let field = Battlefield::from_scenario(&scenario, data);
    let state = MapState::deployment(&scenario, data, &tables(data));
    let page = layout(&field, &state, &RenderOptions::default());
    assert_eq!((page.table.width, page.table.depth), (42.0, 24.0));
    assert!(render_svg(&field, &state, &RenderOptions::default()).ends_with("</svg>\n"));
}

#[test]
fn the_flank_zones_drawn_are_the_ones_the_battlefield_model_answers() {
    use crate::battlefield::arcs::{Zone, front_arc, zone_of};
    use geo::{Contains, LineString, Point, Polygon};
    // A 4-stand line facing 30 degrees: every point of a grid around it that lies inside a
    // drawn shape is in that shape's zone.
    let body =
        crate::battlefield::Body::new((20.0, 18.0), 30.0, crate::geometry::Layout::new(4, None, 0.0, 1.0));
    let left = Polygon::new(LineString::from(draw::flank_zone(&body, -1.0).to_vec()), vec![]);
    let right = Polygon::new(LineString::from(draw::flank_zone(&body, 1.0).to_vec()), vec![]);
    let front = front_arc(&body);
    let mut seen = [0; 3];
    for i in 0..97 {
        for j in 0..73 {
            let p = Point::new(i as f64 * 0.5 + 0.13, j as f64 * 0.5 + 0.07);
            let zone = zone_of(&body, p);
            if left.contains(&p) {
                assert_eq!(zone, Zone::LeftFlank, "{p:?}");
                seen[0] += 1;
            }
            if right.contains(&p) {
                assert_eq!(zone, Zone::RightFlank, "{p:?}");
                seen[1] += 1;
            }
            if front.contains(&p) {
                assert_eq!(zone, Zone::Front, "{p:?}");
                seen[2] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

/// Issue 21: a unit's markers at the table's east edge go on its other flank, inside the frame.
#[test]
fn issue_21_markers_at_the_edge_are_drawn_inside_the_frame() {
    let (field, state) = small(
        "",
        "        regiment \"Blue\" { stands 4 regular rifled_musket line at (46, 10) facing south markers disorder, low_ammo }",
        "",
    );
    let svg = render_svg(&field, &state, &RenderOptions::default());
    let page = super::layout(&field, &state, &RenderOptions::default()).table;
    let right = page.left + page.width;
    let mut seen = 0;
    for group in svg.split("<g class=\"marker\">").skip(1) {
        let path = group.split("d=\"M").nth(1).expect("the marker's path");
        let x: f64 = path.split(' ').next().and_then(|v| v.parse().ok()).expect("its x");
        // The path starts at the disc's west point; the disc is 0.48" across.
        assert!(x + 0.48 <= right && x >= page.left, "a marker at {x} (the frame ends at {right})");
        seen += 1;
    }
    assert_eq!(seen, 2);
}

/// Issue 21: a game's map marks each unit's micro-hit and the stands it has lost, both in the
/// legend; a deployment marks neither.
#[test]
fn issue_21_losses_are_marked_and_listed_in_the_legend() {
    let (field, mut state) = small(
        "",
        "        regiment \"Blue\" { stands 5 regular rifled_musket line at (10, 10) facing east }",
        "        regiment \"Red\" { stands 4 regular rifled_musket line at (30, 10) facing west }",
    );
    let before = render_svg(&field, &state, &RenderOptions::default());
    assert!(!before.contains("Stands lost so far") && !before.contains(">Micro-hit</text>"));
    state.mark_losses([super::state::Loss { unit: "Blue", stands: 2, micro_hit: true }]);
    let svg = render_svg(&field, &state, &RenderOptions::default());
    let blue =
        svg.split("data-unit=\"Blue\"").nth(1).and_then(|s| s.split("data-unit=").next()).expect("Blue");
    assert!(blue.contains(">\u{2212}2</text>"), "two stands lost: {blue}");
    assert!(blue.contains(">1</text>"), "the micro-hit: {blue}");
    assert!(svg.contains(">Stands lost so far</text>") && svg.contains(">Micro-hit</text>"));
    let red =
        svg.split("data-unit=\"Red\"").nth(1).and_then(|s| s.split("<g id=\"labels\"").next()).expect("Red");
    assert!(!red.contains("class=\"marker\""), "Red lost nothing: {red}");
}

/// Issue 21: a phase's marks are drawn over the forces of `render_svg`, and their notes are
/// labels placed with the others.
#[test]
fn issue_21_a_phase_s_marks_are_drawn_with_their_notes_among_the_labels() {
    use super::action::Mark;
    let (field, state) = small(
        "",
        "        regiment \"Blue\" { stands 4 regular rifled_musket line at (10, 10) facing east }",
        "        regiment \"Red\" { stands 4 regular rifled_musket line at (20, 10) facing west }",
    );
    let marks = vec![
        Mark::Fire { from: (10.5, 10.0), to: (19.5, 10.0) },
        Mark::Badge { at: (20.0, 10.0), text: "micro-hit".into() },
        Mark::Badge { at: (20.0, 10.0), text: "+ disorder".into() },
    ];
    let options = RenderOptions { marks, ..RenderOptions::default() };
    let svg = render_svg(&field, &state, &options);
    let table = svg.split("<g id=\"labels\"").next().expect("the table");
    assert_eq!(count(table, "class=\"fire\""), 1, "{table}");
    let labels = svg.split("<g id=\"labels\"").nth(1).expect("the labels");
    assert_eq!(count(labels, "class=\"badge\""), 2, "{labels}");
    assert!(labels.contains(">micro-hit</text>") && labels.contains(">+ disorder</text>"));
    // The legend explains the volley, and only what was drawn.
    assert!(
        svg.contains(">The phase shown</text>")
            && svg.contains(">Volley: the range line to its target</text>")
    );
    assert!(!svg.contains(">Move: from where it stood to where it ended</text>"));
    let plain = render_svg(&field, &state, &RenderOptions::default());
    assert!(!plain.contains("The phase shown") && !plain.contains("class=\"badge\""));
}
