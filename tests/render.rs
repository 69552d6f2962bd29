//! `dotc render` as a user runs it: every shipped scenario and game log drawn as SVG and PNG,
//! the tutorial's map as a reviewed snapshot, and the mistakes it refuses.

use std::path::{Path, PathBuf};

use dotc_lang::ast::FileKind;
use dotc_lang::{FsLoader, analyze};
use dotc_runtime::battlefield::Battlefield;
use dotc_runtime::render::{self, MapState, RenderOptions};
use dotc_runtime::replay::{ReplayOptions, replay};
use resvg::usvg::{self, roxmltree};

mod common;

use common::{dotc, root, text};

/// Every shipped scenario and game log: `scenarios/*/*.dotc`, sorted.
fn shipped() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root().join("scenarios")).expect("scenarios/").flatten() {
        for file in std::fs::read_dir(dir.path()).into_iter().flatten().flatten() {
            // A campaign file (scenarios/campaign/) has no table of its own to draw.
            let campaign = std::fs::read_to_string(file.path())
                .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("campaign \"")));
            if file.path().extension().is_some_and(|e| e == "dotc") && !campaign {
                files.push(file.path());
            }
        }
    }
    files.sort();
    assert!(!files.is_empty());
    files
}

/// What the map of a file must show: its scenario's forces, the page they take, and the table
/// the scenario declares.
fn expected(path: &Path, scale: f64) -> (MapState, render::PageLayout, (f64, f64)) {
    let source = std::fs::read_to_string(path).expect("readable");
    let analysis = analyze(path, &source, &FsLoader);
    let (scenario, data) = match analysis.document.kind {
        Some(FileKind::Game) => {
            let loaded = analysis.scenario.as_ref().expect("the log's scenario");
            (loaded.document.scenario.clone().expect("a scenario"), loaded.rule_data.clone())
        }
        _ => (analysis.document.scenario.clone().expect("a scenario"), analysis.rule_data.clone()),
    };
    let field = Battlefield::from_scenario(&scenario, &data);
    let tables = dotc_runtime::engine::tables::Tables::from_rule_data(&data).expect("complete rule data");
    let mut state = MapState::deployment(&scenario, &data, &tables);
    if analysis.document.kind == Some(FileKind::Game) {
        // A game log's map is the table where the log ends, as its replay leaves it.
        let options = ReplayOptions { source: Some(&source), tables: true, ..ReplayOptions::default() };
        if let Some(table) = replay(&analysis, &options).tables.last() {
            state.at(table, &data);
        }
    }
    let options = RenderOptions { scale, ..RenderOptions::default() };
    let layout = render::layout(&field, &state, &options);
    (state, layout, field.table.expect("every shipped scenario sets its table"))
}

/// The PNG's size from its IHDR chunk, after checking its signature.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    assert!(bytes.len() > 24, "too short for a PNG");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "not a PNG signature");
    assert_eq!(&bytes[12..16], b"IHDR");
    let word = |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    (word(16), word(20))
}

#[test]
fn every_shipped_file_renders_as_svg_with_each_stand_of_each_unit() {
    let dir = tempfile::tempdir().expect("temp dir");
    for path in shipped() {
        let out_path = dir.path().join("map.svg");
        let out = dotc(
            &["render", path.to_str().expect("utf-8"), "-o", out_path.to_str().expect("utf-8")],
            &root(),
        );
        assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
        let svg = std::fs::read_to_string(&out_path).expect("the map was written");

        // A valid SVG for a renderer...
        usvg::Tree::from_str(&svg, &usvg::Options::default())
            .unwrap_or_else(|e| panic!("{}: not a valid SVG: {e}", path.display()));
        // ...and for an XML reader, with one stand element per stand of each unit on the table.
        let xml = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let (state, layout, table_size) = expected(&path, render::DEFAULT_SCALE);
        let mut drawn = 0;
        for unit in state.units.iter().filter(|u| u.body.is_some()) {
            let group = xml
                .descendants()
                .find(|n| {
                    n.attribute("class") == Some("unit")
                        && n.attribute("data-unit") == Some(unit.name.as_str())
                })
                .unwrap_or_else(|| panic!("{}: no group for {}", path.display(), unit.name));
            let stands = group.children().filter(|n| n.attribute("class") == Some("stand")).count();
            let body = unit.body.expect("on the table");
            assert_eq!(stands as u32, body.stand_count(), "{}: {}", path.display(), unit.name);
            drawn += stands;
        }
        let all = xml.descendants().filter(|n| n.attribute("class") == Some("stand")).count();
        assert_eq!(all, drawn, "{}: stands outside their unit's group", path.display());
        assert!(drawn > 0, "{}: no stands drawn", path.display());

        // The page is the table to scale: the viewBox is in inches and the root's size in pixels.
        let svg_root = xml.root_element();
        let (width, height) = layout.pixels(render::DEFAULT_SCALE);
        assert_eq!(svg_root.attribute("width"), Some(width.to_string().as_str()));
        assert_eq!(svg_root.attribute("height"), Some(height.to_string().as_str()));
        let table = xml.descendants().find(|n| n.attribute("id") == Some("table")).expect("the table");
        let size = |name: &str| table.attribute(name).and_then(|v| v.parse::<f64>().ok()).expect("a number");
        assert_eq!((size("width"), size("height")), table_size, "{}", path.display());
    }
}

#[test]
fn every_shipped_file_renders_as_png_at_the_scale_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    for path in shipped() {
        let out_path = dir.path().join("map.png");
        let out = dotc(
            &[
                "render",
                path.to_str().expect("utf-8"),
                "-o",
                out_path.to_str().expect("utf-8"),
                "--scale",
                "10",
            ],
            &root(),
        );
        assert!(out.status.success(), "{}: {}", path.display(), text(&out.stderr));
        let bytes = std::fs::read(&out_path).expect("the map was written");
        let (width, height) = png_size(&bytes);
        let (_, layout, table_size) = expected(&path, 10.0);
        assert_eq!((width, height), layout.pixels(10.0), "{}", path.display());
        // 10 pixels to each inch of the page, whose table is the scenario's: the table takes
        // exactly its size x 10 pixels.
        assert_eq!(f64::from(width) / layout.width, 10.0, "{}", path.display());
        assert_eq!(f64::from(height) / layout.height, 10.0, "{}", path.display());
        assert_eq!((layout.table.width, layout.table.depth), table_size, "{}", path.display());
    }
}

#[test]
fn the_tutorial_map_is_the_reviewed_svg() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_path = dir.path().join("map.svg");
    let out = dotc(
        &["render", "scenarios/tutorial/fence-line.dotc", "-o", out_path.to_str().expect("utf-8")],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&out_path).expect("written");
    insta::assert_snapshot!("fence_line_svg", svg);
}

#[test]
fn a_game_log_draws_the_table_at_the_moment_asked_for() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_path = dir.path().join("game.svg");
    let out = dotc(
        &[
            "render",
            "scenarios/tutorial/fence-line-game.dotc",
            "--at",
            "turn 3 fire",
            "-o",
            out_path.to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&out_path).expect("written");
    // The log is replayed up to the moment asked for, and the map says which moment it shows.
    assert!(svg.contains("Turn 3, after the fire phase"), "{svg}");
    assert!(svg.contains(">The Fence Line, club night</text>"), "{svg}");
    assert!(svg.contains(">The Fence Line · 9 July 1863 · from 10:00"), "{svg}");
    // A moment that is not `turn N [phase]` is refused.
    let bad = dotc(
        &["render", "scenarios/tutorial/fence-line-game.dotc", "--at", "turn 3 lunch", "-o", "x.svg"],
        &root(),
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("`lunch` is not a phase"), "{}", text(&bad.stderr));
}

#[test]
fn a_chosen_unit_gets_its_arcs_and_lines_of_sight() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_path = dir.path().join("maine.svg");
    let out = dotc(
        &[
            "render",
            "scenarios/tutorial/fence-line.dotc",
            "--unit",
            "19th Maine",
            "--arcs",
            "--sight",
            "-o",
            out_path.to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&out_path).expect("written");
    assert!(svg.contains("<g id=\"arcs\">") && svg.contains("<g id=\"sight\">"));
    assert!(svg.contains("class=\"sight-clear\""));
    // An unknown unit gets a suggestion; --arcs needs --unit.
    let typo = dotc(
        &["render", "scenarios/tutorial/fence-line.dotc", "--unit", "19th Main", "-o", "x.svg"],
        &root(),
    );
    assert_eq!(typo.status.code(), Some(2));
    assert!(text(&typo.stderr).contains("did you mean \"19th Maine\"?"), "{}", text(&typo.stderr));
    let alone = dotc(&["render", "scenarios/tutorial/fence-line.dotc", "--arcs", "-o", "x.svg"], &root());
    assert_eq!(alone.status.code(), Some(2));
}

/// A map as PDF: one vector page the size of the SVG map (one point a pixel), its text kept as
/// text in the embedded font, and the same bytes every time.
#[test]
fn a_map_as_pdf_is_one_page_the_svgs_size_with_its_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = root().join("scenarios/tutorial/fence-line.dotc");
    let draw = |name: &str| {
        let out =
            dotc(&["render", scenario.to_str().expect("utf-8"), "-o", name, "--scale", "12"], dir.path());
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read(dir.path().join(name)).expect("written")
    };
    let pdf = draw("map.pdf");
    let again = draw("again.pdf");
    assert!(pdf == again, "the same map gave other bytes");
    let body = String::from_utf8_lossy(&pdf);
    assert!(body.starts_with("%PDF-"));
    let pages = body.matches("/Type /Page").count() - body.matches("/Type /Pages").count();
    assert_eq!(pages, 1);
    let (_, layout, _) = expected(&scenario, 12.0);
    let (width, height) = layout.pixels(12.0);
    assert!(body.contains(&format!("/MediaBox [0 0 {width} {height}]")), "no page of the map's size");
    assert!(body.contains("DejaVu"), "the font is not embedded");
    assert!(body.contains("/Title (The Fence Line)"), "no title");
    // A page larger than PDF allows (200 inches a side) is refused, and --scale named.
    let out =
        dotc(&["render", scenario.to_str().expect("utf-8"), "-o", "huge.pdf", "--scale", "400"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("lower --scale"), "{}", text(&out.stderr));
    assert!(!dir.path().join("huge.pdf").exists());
}

#[test]
fn an_unknown_extension_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scenario = root().join("scenarios/tutorial/fence-line.dotc");
    let out = dotc(&["render", scenario.to_str().expect("utf-8"), "-o", "map.jpg"], dir.path());
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("give -o a file name ending in .svg, .png or .pdf"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
    // A scale that is not above 0, or a PNG too large to draw, is refused too.
    let zero =
        dotc(&["render", scenario.to_str().expect("utf-8"), "-o", "map.svg", "--scale", "0"], dir.path());
    assert_eq!(zero.status.code(), Some(2));
    assert!(text(&zero.stderr).contains("--scale is pixels per inch and must be above 0"));
    let huge =
        dotc(&["render", scenario.to_str().expect("utf-8"), "-o", "map.png", "--scale", "1000"], dir.path());
    assert_eq!(huge.status.code(), Some(2));
    assert!(text(&huge.stderr).contains("is too large; lower --scale"), "{}", text(&huge.stderr));
    assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 0);
}

#[test]
fn at_on_a_scenario_is_an_error() {
    let out = dotc(
        &["render", "scenarios/tutorial/fence-line.dotc", "--at", "turn 3 fire", "-o", "x.svg"],
        &root(),
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("--at \"turn 3 fire\" picks a moment of a game log"), "{err}");
    assert!(err.contains("is a scenario"), "{err}");
    assert!(!root().join("x.svg").exists());
}

#[test]
fn a_broken_file_prints_its_diagnostics_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("broken.dotc"),
        "scenario \"Broken\" {\n    turns 4\n    table 24 x 24\n    first_side union\n    side union {\n        edge west\n        \
         brigade \"A\" {\n            brigadier \"Col. A\" reliable at (2, 2)\n            \
         regiment \"1st A\" { stands 4 veteren rifled_musket line at (5, 5) facing east }\n        }\n    }\n}\n",
    )
    .expect("write");
    std::fs::write(dir.path().join("map.svg"), "old").expect("write");
    let out = dotc(&["render", "broken.dotc", "-o", "map.svg"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("dotc::unknown-quality") && err.contains("did you mean `veteran`?"), "{err}");
    assert!(err.contains("broken.dotc has errors; no map written"), "{err}");
    assert_eq!(std::fs::read_to_string(dir.path().join("map.svg")).expect("kept"), "old");
}

#[test]
fn the_output_is_replaced_whole_and_no_temporary_file_is_left() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("map.png"), "old").expect("write");
    let scenario = root().join("scenarios/tutorial/fence-line.dotc");
    let out =
        dotc(&["render", scenario.to_str().expect("utf-8"), "-o", "map.png", "--scale", "4"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    png_size(&std::fs::read(dir.path().join("map.png")).expect("written"));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, vec!["map.png".to_string()]);
}

/// Hidden Deployment (Ch13 4.0): the suite scenario's blinds as tokens, each with its name and
/// what it hides on the umpire's map; on the union's map at the end of turn 1 of its log, the
/// confederate blinds are plain "?" tokens with no name, and their brigade is left out.
#[test]
fn blinds_are_drawn_as_tokens_and_a_side_sees_the_enemy_s_as_question_marks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let umpire = dir.path().join("umpire.svg");
    let out = dotc(
        &["render", "tests/rules/modules/hidden_deployment.dotc", "-o", umpire.to_str().expect("utf-8")],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&umpire).expect("written");
    // Six tokens, each named, each with what it hides under it; the hidden regiments are not
    // drawn (off the table), the legend says where they are.
    assert_eq!(svg.matches("class=\"blind\"").count(), 6, "{svg}");
    assert!(
        svg.contains("data-blind=\"B1\"") && svg.contains(">Ames</text>") && svg.contains(">dummy</text>")
    );
    assert!(!svg.contains("data-unit=\"U1\"") && !svg.contains("data-unit=\"R1\""), "{svg}");
    assert!(svg.contains(">hidden under blind CB</text>"), "{svg}");
    assert!(svg.contains(">Blind (Ch13 4.0): its name; under it, its brigade or dummy</text>"));
    assert!(!svg.contains(">?</text>"), "{svg}");
    insta::assert_snapshot!("hidden_deployment_svg", svg);

    let union = dir.path().join("union.svg");
    let out = dotc(
        &[
            "render",
            "tests/rules/modules/hidden_deployment-game.dotc",
            "--at",
            "turn 1",
            "--as",
            "union",
            "-o",
            union.to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = std::fs::read_to_string(&union).expect("written");
    // The union's three blinds in full (B1 moved to (20, 19)); the confederates' three as "?".
    assert_eq!(svg.matches("class=\"blind\"").count(), 6, "{svg}");
    assert_eq!(svg.matches(">?</text>").count(), 3 + 1, "three tokens and the legend's sample:\n{svg}");
    for secret in
        ["data-blind=\"CB\"", ">CB<", ">CD1<", ">Doles<", "R1", "Col. Doles", "hidden under blind CB"]
    {
        assert!(!svg.contains(secret), "{secret} on the union's map:\n{svg}");
    }
    assert!(svg.contains("data-blind=\"B1\"") && svg.contains(">hidden under blind B1</text>"));
    assert!(svg.contains("End of turn 1, as union saw it"), "{svg}");
    assert!(svg.contains(">Enemy blind, not yet revealed: real or dummy</text>"));
    insta::assert_snapshot!("hidden_deployment_as_union_svg", svg);

    // An unknown side is an error that lists the sides, and nothing is written.
    let bad = dir.path().join("bad.svg");
    let out = dotc(
        &[
            "render",
            "tests/rules/modules/hidden_deployment.dotc",
            "--as",
            "north",
            "-o",
            bad.to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no side `north`; its sides are union, confederate"));
    assert!(!bad.exists());
}

/// `dotc replay --svg DIR --as SIDE`: the maps after each turn as that side saw the table.
#[test]
fn replay_maps_as_a_side_draw_the_enemy_s_blinds_as_question_marks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dotc(
        &[
            "replay",
            "tests/rules/modules/hidden_deployment-game.dotc",
            "--as",
            "confederate",
            "--svg",
            dir.path().to_str().expect("utf-8"),
        ],
        &root(),
    );
    assert!(text(&out.stderr).contains("wrote 3 maps"), "{}", text(&out.stderr));
    let turn1 = std::fs::read_to_string(dir.path().join("turn-01.svg")).expect("turn 1");
    // The union's B1, UD1, UD2 as "?"; the confederates' own in full.
    assert_eq!(turn1.matches(">?</text>").count(), 3 + 1, "{turn1}");
    assert!(!turn1.contains(">Ames<") && !turn1.contains("data-blind=\"B1\""), "{turn1}");
    assert!(turn1.contains("data-blind=\"CB\"") && turn1.contains(">Doles</text>"), "{turn1}");
    // At the end of turn 3, the union's dummies still stand, unknown; B1 is revealed and gone.
    let turn3 = std::fs::read_to_string(dir.path().join("turn-03.svg")).expect("turn 3");
    assert_eq!(turn3.matches(">?</text>").count(), 2 + 1, "{turn3}");
    assert!(turn3.contains("data-unit=\"U1\""), "{turn3}");
}

/// The deployment maps the Gettysburg README shows are the scenarios as they stand: each is
/// drawn again by `dotc render` and must be the committed SVG byte for byte (issue 19: never
/// stale). `DOTC_BLESS_MAPS=1` writes them anew after a scenario changes; review the picture.
#[test]
fn deployment_maps_are_current() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let folder = root().join("scenarios/gettysburg-day1");
    for (scenario, map) in [
        ("gettysburg-day1-morning.dotc", "deployment.svg"),
        ("gettysburg-day1-afternoon.dotc", "afternoon-deployment.svg"),
        ("gettysburg-day1-mcpherson.dotc", "mcpherson-deployment.svg"),
        ("gettysburg-day1-seminary.dotc", "seminary-deployment.svg"),
        ("gettysburg-day1-brickyard.dotc", "brickyard-deployment.svg"),
    ] {
        let (out, source) = (dir.path().join(map), folder.join(scenario));
        let args = ["render", source.to_str().expect("utf-8"), "-o", out.to_str().expect("utf-8")];
        let run = dotc(&args, dir.path());
        assert!(run.status.success(), "{}", text(&run.stderr));
        let drawn = std::fs::read_to_string(&out).expect("drawn");
        let committed = folder.join(map);
        if std::env::var_os("DOTC_BLESS_MAPS").is_some() {
            std::fs::write(&committed, &drawn).expect("write the map");
            continue;
        }
        let kept = std::fs::read_to_string(&committed).unwrap_or_default();
        assert!(
            kept == drawn,
            "{map} is not the map of {scenario} as it stands: redraw it with \
             `DOTC_BLESS_MAPS=1 cargo test --test render deployment_maps_are_current` and review it"
        );
        // The README shows it.
        let readme = std::fs::read_to_string(folder.join("README.md")).expect("README");
        assert!(readme.contains(&format!("]({map})")), "the README does not show {map}");
    }
}

/// Issue 21: `render --at` draws what the last phase before the moment did (moves, charges,
/// volleys, lost stands, notes) with its legend, and each unit's micro-hit and stands lost;
/// `--no-actions` leaves the phase out but keeps the losses.
#[test]
fn render_at_draws_the_last_phase_and_the_losses() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("turn3.svg");
    let game = "scenarios/tutorial/fence-line-game.dotc";
    let run = |extra: &[&str]| {
        let mut args =
            vec!["render", game, "--at", "turn 3 maneuver", "-o", out.to_str().expect("utf-8"), "--force"];
        args.extend(extra);
        let run = dotc(&args, &root());
        assert!(run.status.success(), "{}", text(&run.stderr));
        std::fs::read_to_string(&out).expect("written")
    };
    let svg = run(&[]);
    let table = svg.split("<g id=\"labels\"").next().expect("the table");
    // Turn 3's maneuver phase: the 9th Louisiana's charge with its closing volley and the
    // stands it cost, two moves, and notes.
    for class in ["move", "charge", "fire", "lost"] {
        assert!(table.contains(&format!("class=\"{class}\"")), "no {class} drawn");
    }
    assert!(svg.contains("class=\"badge\""), "no notes");
    assert!(
        svg.contains("drawn over it: what turn 3&apos;s maneuver phase did"),
        "the title says which phase"
    );
    assert!(
        svg.contains(">The phase shown</text>") && svg.contains(">Charge: to the enemy it reached</text>")
    );
    assert!(svg.contains(">Micro-hit</text>") && svg.contains(">Stands lost so far</text>"));
    assert!(table.contains(">\u{2212}1</text>"), "a stand lost marked");

    let plain = run(&["--no-actions"]);
    let table = plain.split("<g id=\"labels\"").next().expect("the table");
    for class in ["move", "charge", "fire", "lost", "badge"] {
        assert!(!plain.contains(&format!("class=\"{class}\"")), "{class} drawn with --no-actions");
    }
    assert!(!plain.contains("The phase shown") && !plain.contains("drawn over it"));
    assert!(table.contains(">\u{2212}1</text>") && plain.contains(">Micro-hit</text>"), "the losses stay");
    // --no-actions asks for --at.
    let alone =
        dotc(&["render", game, "--no-actions", "-o", out.to_str().expect("utf-8"), "--force"], &root());
    assert_eq!(alone.status.code(), Some(2));
}
