//! The battlefield built from a real scenario, from broken ones, and properties of the queries.

use std::path::Path;

use dotc_lang::analysis::{Loader, analyze};
use dotc_lang::ast::{Feature, FeatureAttr, Point as AstPoint, Scenario, Span, Spanned, Unit};
use dotc_lang::library::{CoverClass, RuleData, SightLimit};
use geo::{BoundingRect, Distance, Euclidean, Point, Rotate};
use proptest::prelude::*;

use super::arcs::{enfilade, in_front_arc};
use super::contact::{edge_contact, in_contact, stands_touch};
use super::range::range;
use super::*;
use crate::engine::fire::CoverInput;
use crate::geometry::{Frame, Layout};
use crate::rulings::Enfilade;

/// A battlefield with these terrain lines on a 48" x 36" table, read from the stdlib.
pub(crate) fn field(terrain: &str) -> Battlefield {
    let source = format!("scenario \"Test\" {{\n    table 48 x 36\n    terrain {{\n{terrain}\n    }}\n}}\n");
    let parsed = dotc_lang::parse(&source);
    assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
    let scenario = parsed.document.scenario.expect("a scenario");
    Battlefield::from_scenario(&scenario, dotc_lang::stdlib())
}

/// A unit of `stands` in one rank.
pub(crate) fn line(position: (f64, f64), facing: f64, stands: u32) -> Body {
    Body::new(position, facing, Layout::new(stands, None, 0.0, 1.0))
}

/// A scenario file reads no other file.
struct NoFiles;

impl Loader for NoFiles {
    fn load(&self, path: &Path) -> Result<String, String> {
        Err(format!("{} is not available", path.display()))
    }
}

fn fence_line() -> (Scenario, RuleData) {
    let source = include_str!("../../../scenarios/tutorial/fence-line.dotc");
    let analysis = analyze(Path::new("scenarios/tutorial/fence-line.dotc"), source, &NoFiles);
    assert!(!analysis.has_errors(), "{:?}", analysis.diagnostics);
    (analysis.document.scenario.expect("a scenario"), analysis.rule_data)
}

fn unit<'a>(scenario: &'a Scenario, name: &str) -> &'a Unit {
    scenario
        .sides
        .iter()
        .flat_map(|s| s.brigades.iter().flat_map(|b| b.units.iter()).chain(s.units.iter()))
        .find(|u| u.name.value == name)
        .unwrap_or_else(|| panic!("no unit {name}"))
}

fn body(scenario: &Scenario, data: &RuleData, name: &str) -> Body {
    let men_per_stand = scenario.men_per_stand.as_ref().map(|m| m.value);
    let tables = crate::engine::tables::Tables::from_rule_data(data).expect("complete rule data");
    Body::from_unit(unit(scenario, name), data, &tables, men_per_stand).expect("placed")
}

#[test]
fn the_fence_line_battlefield() {
    let (scenario, data) = fence_line();
    let f = Battlefield::from_scenario(&scenario, &data);
    assert_eq!(f.table, Some((48.0, 36.0)));

    // Keedy's Hill: level 1, crest at x = 15.5; the objective on it is at level 1.
    let hill = f.hill("Keedy’s Hill").unwrap();
    assert_eq!(hill.level, 1);
    assert!(hill.crest.is_some());
    assert_eq!(f.level_at(f.objective("Keedy’s Hill").unwrap().at), 1);
    assert_eq!(f.level_at((30.0, 14.0)), 0);

    // The pike is a road; Beaver Run a minor stream with a ford and a bridge; the lane is the
    // scenario's own sunken kind.
    assert_eq!(f.line("Boonsboro Pike").unwrap().terrain.meta.id, "road");
    let run = f.line("Beaver Run").unwrap();
    assert_eq!(run.terrain.meta.id, "minor_stream");
    assert_eq!((run.fords.as_slice(), run.bridges.as_slice()), (&[(39.5, 10.0)][..], &[(39.0, 19.5)][..]));
    let lane = f.line("Ridenour Lane").unwrap();
    assert_eq!((lane.terrain.meta.id.as_str(), lane.terrain.cover.class), ("farm_lane", CoverClass::Light));
    assert_eq!(lane.flags, vec!["sunken".to_string()]);

    // Obstacles, areas and the house.
    assert_eq!(f.obstacle("The Fence Line").unwrap().obstacle.meta.id, "rail_fence");
    assert_eq!(f.obstacle("Ridenour Lane Wall").unwrap().obstacle.meta.id, "stone_wall");
    assert_eq!(f.areas.len(), 4);
    assert_eq!(f.area("The Thicket").unwrap().terrain.los, SightLimit::Inches(3.0));
    let house = f.building("Ridenour House").unwrap();
    let walls = house.footprint.as_ref().unwrap().bounding_rect().unwrap();
    assert_eq!((walls.min().x, walls.max().x, walls.min().y, walls.max().y), (24.0, 26.0, 33.5, 35.5));
    assert_eq!(house.capacity, 2);
    assert_eq!(f.objectives.len(), 3);
    assert_eq!(f.objective("Ridenour Farm").unwrap().vp, Some(3.0));
    assert_eq!(
        f.smoke,
        SmokeRule {
            penalty_beyond: Some(6.0),
            wall_beyond: Some(8.0),
            wall_regiments: Some(3),
            wall_within: 1.0,
            size: 1.0
        }
    );
}

#[test]
fn the_19th_maine_behind_the_rail_fence() {
    // The 19th Maine (5 stands facing east, front x = 19.5, y = 10.5..15.5) stands 0.5" behind
    // the rail fence (x = 20). The 9th Louisiana (310 men at 75 a stand = 4 stands, facing west
    // at (30, 14)) fires from the east: range 30 - 19.5 = 10.5" (Medium), in its arc, in sight
    // with all 4 stands, and the fence gives light cover on the Maine's front.
    let (scenario, data) = fence_line();
    let f = Battlefield::from_scenario(&scenario, &data);
    let maine = body(&scenario, &data, "19th Maine");
    let louisiana = body(&scenario, &data, "9th Louisiana");
    assert_eq!(louisiana.stand_count(), 4);
    assert_eq!(range(&louisiana, &maine), 10.5);
    assert!(in_front_arc(&louisiana, &maine));
    let sight = f.sight(&SightQuery::new(&louisiana, &maine));
    assert!(sight.visible && !sight.smoke_penalty);
    assert_eq!(sight.clear_stands, vec![0, 1, 2, 3]);
    assert_eq!(f.cover(&louisiana, &maine, None), CoverInput::of(CoverClass::Light, "rail_fence", true));
    // Neither enfilades the other.
    assert!(!enfilade(&louisiana, &maine, Enfilade::MajorityBehind).enfilade);

    // The 20th Connecticut behind the stone wall, against the 50th Georgia: heavy.
    let connecticut = body(&scenario, &data, "20th Connecticut");
    let georgia = body(&scenario, &data, "50th Georgia");
    assert_eq!(f.cover(&georgia, &connecticut, None), CoverInput::of(CoverClass::Heavy, "stone_wall", true));
}

#[test]
fn keedys_hill_shelters_and_commands() {
    let (scenario, data) = fence_line();
    let f = Battlefield::from_scenario(&scenario, &data);
    // Battery K (15, 19) is on the hill within 1" of its crest: it fires down on the 9th
    // Louisiana with the crest advantage.
    let battery = body(&scenario, &data, "Battery K, 4th U.S.");
    let louisiana = body(&scenario, &data, "9th Louisiana");
    assert_eq!(f.level_of(&battery), 1);
    assert!(f.crest_held_by(&battery).is_some());
    assert!(f.slope(&battery, &louisiana).downhill_from_crest);
    // A regiment formed 2.5" behind the crest (front x = 13, facing east) is in dead ground to
    // the 9th Louisiana at the foot of the hill.
    let reserve = line((13.0, 16.0), 90.0, 4);
    let sight = f.sight(&SightQuery::new(&louisiana, &reserve));
    assert!(
        matches!(sight.blocked, Some(SightBlock::DeadGround(DeadGround { behind, .. })) if behind == 2.5)
    );
}

fn attr_points(points: &[(f64, f64)]) -> Spanned<Vec<AstPoint>> {
    Spanned::new(points.iter().map(|&(x, y)| AstPoint { x, y }).collect(), Span::default())
}

fn feature(kind: &str, name: Option<&str>, attrs: Vec<FeatureAttr>) -> Feature {
    Feature {
        span: Span::default(),
        kind: Spanned::new(kind.to_string(), Span::default()),
        name: name.map(|n| Spanned::new(n.to_string(), Span::default())),
        attrs,
    }
}

#[test]
fn unreadable_features_are_left_out() {
    let square = || FeatureAttr::Polygon(attr_points(&[(0.0, 0.0), (4.0, 0.0), (4.0, 4.0)]));
    let scenario = Scenario {
        terrain: vec![
            feature("swamp_of_doom", Some("Unknown kind"), vec![square()]),
            feature(
                "light_woods",
                Some("Two corners"),
                vec![FeatureAttr::Polygon(attr_points(&[(0.0, 0.0), (1.0, 1.0)]))],
            ),
            feature(
                "light_woods",
                Some("Not a number"),
                vec![FeatureAttr::Polygon(attr_points(&[(f64::NAN, 0.0), (4.0, 0.0), (4.0, 4.0)]))],
            ),
            feature("light_woods", Some("No shape"), vec![]),
            feature("hill", Some("No level"), vec![square()]),
            feature(
                "hill",
                Some("Half a level"),
                vec![square(), FeatureAttr::Level(Spanned::new(1.5, Span::default()))],
            ),
            feature(
                "objective",
                None,
                vec![FeatureAttr::At(Spanned::new(AstPoint { x: 1.0, y: 1.0 }, Span::default()))],
            ),
            feature("rail_fence", Some("Fence as an area"), vec![square()]),
            feature(
                "masonry_building",
                Some("Nowhere"),
                vec![FeatureAttr::Size(Spanned::new((2.0, 2.0), Span::default()))],
            ),
            feature(
                "masonry_building",
                Some("Flat"),
                vec![
                    FeatureAttr::At(Spanned::new(AstPoint { x: 1.0, y: 1.0 }, Span::default())),
                    FeatureAttr::Size(Spanned::new((0.0, 2.0), Span::default())),
                ],
            ),
            feature("light_woods", Some("Good"), vec![square()]),
        ],
        ..Scenario::default()
    };
    let f = Battlefield::from_scenario(&scenario, dotc_lang::stdlib());
    assert_eq!(f.table, None);
    assert_eq!(f.areas.iter().map(|a| a.name.as_deref()).collect::<Vec<_>>(), vec![Some("Good")]);
    assert!(f.hills.is_empty() && f.objectives.is_empty() && f.obstacles.is_empty());
    // The building with no size is a point: its garrison still has heavy cover.
    assert_eq!(f.buildings.len(), 1);
    assert!(f.buildings[0].footprint.is_none());
}

// ------------------------------------------------------------------ properties

fn any_body() -> impl Strategy<Value = Body> {
    (
        -50.0..50.0f64,
        -50.0..50.0f64,
        0.0..360.0f64,
        1u32..8,
        prop::option::of(1u32..3),
        prop::sample::select(vec![0.0, 0.5, 1.0]),
    )
        .prop_map(|(x, y, facing, stands, frontage, gap)| {
            Body::new((x, y), facing, Layout::new(stands, frontage, gap, 1.0))
        })
}

/// A second unit placed near the first, often squarely touching it.
fn near(of: Body) -> impl Strategy<Value = Body> {
    (
        -6.0..6.0f64,
        prop_oneof![Just(0.0), Just(0.05), -1.0..6.0f64],
        prop_oneof![Just(180.0), 0.0..360.0f64],
        1u32..6,
    )
        .prop_map(move |(across, ahead, turn, stands)| {
            let p = of.frame().to_table(across, ahead);
            line((p.x, p.y), of.facing + turn, stands)
        })
}

fn pair() -> impl Strategy<Value = (Body, Body)> {
    any_body().prop_flat_map(|a| (Just(a), near(a)))
}

/// Both bodies turned `degrees` clockwise about `pivot`.
fn turned(body: &Body, pivot: (f64, f64), degrees: f64) -> Body {
    let p = Point::new(body.position.0, body.position.1)
        .rotate_around_point(-degrees, Point::new(pivot.0, pivot.1));
    Body { position: (p.x(), p.y()), facing: body.facing + degrees, ..*body }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn range_is_never_negative_and_never_shorter_than_the_gap((a, b) in pair()) {
        let r = range(&a, &b);
        prop_assert!(r >= 0.0);
        // The colours lie on A's front edge, so range is never shorter than the gap between A's
        // footprint and B's stands.
        let footprint = a.footprint();
        let gap = b.stands().iter().map(|t| Euclidean.distance(&footprint, t)).fold(f64::INFINITY, f64::min);
        prop_assert!(r >= gap - 1e-9, "range {r} gap {gap}");
    }

    #[test]
    fn range_is_symmetric_between_squarely_opposed_equal_units(a in any_body(), gap in 0.0..20.0f64) {
        // Two units of the same close-order layout face each other, fronts parallel and centred:
        // each one's colours are `gap` from the other's front edge. (In general range is not
        // symmetric, see range.rs: it runs from one point to the nearest stand. Nor is it with
        // an even frontage in open order, whose centre faces the gap between two stands.)
        let a = Body { layout: Layout::new(a.layout.stands, Some(a.layout.across), 0.0, 1.0), ..a };
        let p = a.frame().to_table(0.0, gap);
        let b = Body { position: (p.x, p.y), facing: a.facing + 180.0, ..a };
        prop_assert!((range(&a, &b) - range(&b, &a)).abs() < 1e-9);
        prop_assert!((range(&a, &b) - gap).abs() < 1e-6);
    }

    #[test]
    fn each_stand_of_a_line_touches_its_neighbours(x in -50.0..50.0f64, y in -50.0..50.0f64, facing in 0.0..360.0f64, stands in 2u32..10) {
        let body = line((x, y), facing, stands);
        let rects = body.stands();
        for pair in rects.windows(2) {
            prop_assert!(stands_touch(&pair[0], &pair[1]));
            prop_assert!(edge_contact(&pair[0], &pair[1]));
        }
        // Stands two apart do not touch.
        for i in 2..rects.len() {
            prop_assert!(!stands_touch(&rects[i - 2], &rects[i]));
        }
    }

    #[test]
    fn turning_the_table_changes_neither_range_nor_contact((a, b) in pair(), pivot in (-50.0..50.0f64, -50.0..50.0f64), degrees in 0.0..360.0f64) {
        let (a2, b2) = (turned(&a, pivot, degrees), turned(&b, pivot, degrees));
        prop_assert!((range(&a, &b) - range(&a2, &b2)).abs() < 1e-6);
        prop_assert!((range(&b, &a) - range(&b2, &a2)).abs() < 1e-6);
        prop_assert_eq!(in_contact(&a, &b), in_contact(&a2, &b2));
    }

    #[test]
    fn the_queries_never_panic_on_odd_terrain(
        corners in prop::collection::vec((-1e3..1e3f64, -1e3..1e3f64), 0..6),
        kind in prop::sample::select(vec!["light_woods", "dense_woods", "town", "rail_fence", "stone_wall", "masonry_building", "hill", "road", "sunken_road"]),
        (a, b) in pair(),
    ) {
        let points = attr_points(&corners);
        let attrs = vec![
            FeatureAttr::Polygon(points.clone()),
            FeatureAttr::Line(points.clone()),
            FeatureAttr::Crest(points),
            FeatureAttr::Level(Spanned::new(1.0, Span::default())),
            FeatureAttr::At(Spanned::new(AstPoint { x: a.position.0, y: a.position.1 }, Span::default())),
            FeatureAttr::Size(Spanned::new((1.0, 1.0), Span::default())),
        ];
        let scenario = Scenario { terrain: vec![feature(kind, Some("F"), attrs)], ..Scenario::default() };
        let f = Battlefield::from_scenario(&scenario, dotc_lang::stdlib());
        let friends = [Friend { body: &a, formed: true }];
        let _ = f.sight(&SightQuery { friends: &friends, ..SightQuery::new(&a, &b) });
        let _ = f.cover(&a, &b, Some("F"));
        let _ = f.slope(&a, &b);
    }
}

#[test]
fn a_turned_pair_keeps_its_range_worked_example() {
    // Facing north at (0, 0) and facing south 10" north of it: range 10. Turned 90 degrees
    // clockwise about the origin, A faces east at (0, 0) and B faces west at (10, 0): still 10.
    let (a, b) = (line((0.0, 0.0), 0.0, 5), line((0.0, 10.0), 180.0, 5));
    let (a2, b2) = (turned(&a, (0.0, 0.0), 90.0), turned(&b, (0.0, 0.0), 90.0));
    assert!((b2.position.0 - 10.0).abs() < 1e-9 && b2.position.1.abs() < 1e-9);
    assert_eq!(Frame::new(a2.position, a2.facing).forward, (1.0, 0.0));
    assert_eq!(range(&a2, &b2), 10.0);
}
