//! Movement: every row of Ch16 3.1, the terrain and obstacle rulings (C24, C25), Disorder (C6),
//! double time, the minimum move, wheels, fixed moves, charges and their interruption line.
//! Each test works its numbers by hand in its comments.

use proptest::prelude::*;

use super::*;
use crate::battlefield::tests::{field, line};
use crate::rulings::{
    BlockedRetreat, DisorderedMovement, ObstacleCost, RoadColumnChange, Rulings, WoodsSpeed,
};

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

/// Judge a move on `bf` under the default rulings.
fn check(bf: &Battlefield, mv: &Move<'_>) -> MoveReport {
    check_move(bf, data(), &Rulings::default(), mv)
}

/// Judge a move under these rulings.
fn check_with(bf: &Battlefield, rulings: Rulings, mv: &Move<'_>) -> MoveReport {
    check_move(bf, data(), &rulings, mv)
}

/// The pose `inches` straight ahead of a body.
fn ahead(body: &Body, inches: f64) -> Pose {
    let p = body.frame().to_table(0.0, inches);
    Pose::new((p.x, p.y), body.facing)
}

/// A move of `kind` by `mover` from `start` to `end`.
fn mv<'a>(mover: Mover<'a>, kind: MoveKind<'a>, start: Body, end: Pose) -> Move<'a> {
    Move::new(mover, kind, start, end)
}

/// A unit one stand wide (a road column's shape), facing north at (10, 5).
fn file() -> Body {
    Body::new((10.0, 5.0), 0.0, Layout::new(4, Some(1), 0.0, 1.0))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn has(report: &MoveReport, test: impl Fn(&FindingKind) -> bool) -> bool {
    report.findings.iter().any(|f| test(&f.kind))
}

fn too_far(report: &MoveReport) -> bool {
    has(report, |k| matches!(k, FindingKind::TooFar { .. }))
}

/// The one rate of every row in Ch16 3.1 (and Ch16 10.4 for horse artillery by hand), typed in
/// from the printed table: open, woods/rough, road.
fn table() -> Vec<(&'static str, Mover<'static>, f64, f64, f64)> {
    vec![
        ("infantry line", Mover::infantry("line"), 6.0, 4.0, 6.0),
        ("infantry assault column", Mover::infantry("assault_column"), 8.0, 5.0, 9.0),
        ("infantry road column", Mover::infantry("road_column"), 10.0, 6.0, 12.0),
        ("cavalry line", Mover::mounted_cavalry("line"), 9.0, 5.0, 10.0),
        ("cavalry column", Mover::mounted_cavalry("road_column"), 10.0, 6.0, 14.0),
        ("artillery limbered", Mover::battery(true), 8.0, 3.0, 12.0),
        ("artillery by prolonge", Mover::battery(false), 2.0, 0.0, 2.0),
        ("horse artillery limbered", Mover::horse_battery(true), 10.0, 4.0, 14.0),
        ("horse artillery by hand", Mover::horse_battery(false), 3.0, 0.0, 3.0),
        ("brigadier", Mover::brigadier(), 12.0, 8.0, 16.0),
        ("dismounted cavalry", Mover::dismounted_cavalry(), 5.0, 4.0, 6.0),
    ]
}

#[test]
fn every_row_of_the_movement_table_in_open_rough_and_road() {
    // Ch16 3.1. Each row moves 1" north from (10, 5): in the open, in woods covering the whole
    // table (C24 `formation_rate`, so the row's Woods/Rough figure stands alone), and along a
    // road drawn under its path. The allowance is the table's figure.
    let open = field("");
    let woods = field("light_woods polygon (0, 0) (48, 0) (48, 36) (0, 36)");
    let road = field("road \"Pike\" line (10, 0) (10, 36)");
    let formation_rate = Rulings { woods_speed: WoodsSpeed::FormationRate, ..Rulings::default() };
    for (name, mover, open_rate, rough_rate, road_rate) in table() {
        let step = mv(mover, MoveKind::Advance, file(), ahead(&file(), 1.0));
        let r = check(&open, &step);
        assert_eq!(r.allowance, open_rate, "{name} open: {r:?}");
        assert!(r.is_legal(), "{name}: {:?}", r.findings);
        // Rough: the prolonge rows have 0" and no minimum move, so their 1" is too far.
        let r = check_with(&woods, formation_rate, &step);
        assert_eq!(r.allowance, rough_rate, "{name} rough: {:?}", r.allowance_parts);
        let r = check(&road, &step);
        assert_eq!(r.allowance, road_rate, "{name} road: {:?}", r.allowance_parts);
        // Exactly the allowance is legal; 0.1" more is not (RULINGS G4's <=).
        let full = check(&open, &mv(mover, MoveKind::Advance, file(), ahead(&file(), open_rate)));
        assert!(full.is_legal(), "{name}: {:?}", full.findings);
        let over = check(&open, &mv(mover, MoveKind::Advance, file(), ahead(&file(), open_rate + 0.1)));
        assert!(too_far(&over), "{name}");
    }
}

#[test]
fn a_move_too_far_says_by_how_much_and_why() {
    // A 5-stand line moves 7.4" in the open: 6.0" allowed.
    let start = line((10.0, 5.0), 0.0, 5);
    let r = check(&field(""), &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 7.4)));
    assert_eq!(r.row.as_deref(), Some("infantry_line"));
    assert_eq!(r.allowance_parts[0].to_string(), "Infantry, line of battle, open ground 6.0\", Ch16 3.1");
    let finding = r.violations().next().unwrap();
    assert_eq!(
        finding.to_string(),
        "moved 7.4\" of an allowed 6.0\": Infantry, line of battle, open ground, Ch16 3.1"
    );
}

#[test]
fn c24_woods_speed_both_settings_in_light_and_dense_woods() {
    // Ch16 3.1 Woods/Rough: line 4", assault column 5". Ch16 4.1 caps: light woods 4", dense 3".
    //                 lower (default)      formation_rate
    // line, light     min(4, 4) = 4        4
    // line, dense     min(4, 3) = 3        4
    // column, light   min(5, 4) = 4        5
    // column, dense   min(5, 3) = 3        5
    let cases = [
        ("light_woods", "line", 4.0, 4.0),
        ("dense_woods", "line", 3.0, 4.0),
        ("light_woods", "assault_column", 4.0, 5.0),
        ("dense_woods", "assault_column", 3.0, 5.0),
    ];
    for (woods, formation, lower, formation_rate) in cases {
        let bf = field(&format!("{woods} polygon (0, 0) (48, 0) (48, 36) (0, 36)"));
        let start = line((10.0, 5.0), 0.0, 4);
        let step = mv(Mover::infantry(formation), MoveKind::Advance, start, ahead(&start, 1.0));
        let r = check(&bf, &step);
        assert_eq!(r.allowance, lower, "{woods} {formation} lower");
        assert!(r.allowance_parts[0].rule.contains("RULINGS C24"), "{}", r.allowance_parts[0]);
        let rulings = Rulings { woods_speed: WoodsSpeed::FormationRate, ..Rulings::default() };
        assert_eq!(
            check_with(&bf, rulings, &step).allowance,
            formation_rate,
            "{woods} {formation} formation_rate"
        );
    }
}

#[test]
fn the_most_restrictive_terrain_crossed_sets_the_rate_for_the_whole_move() {
    // Dense woods from y = 8 to 9 across the table. A line at (10, 5) facing north moving 3" to
    // y = 8 stops with its front on the edge (a touch, not an entry): the open 6". Moving 3.5"
    // its stands enter the woods: the whole move is at 3", so 3.5" is too far, 3.0" is not.
    let bf = field("dense_woods polygon (0, 8) (48, 8) (48, 9) (0, 9)");
    let start = line((10.0, 5.0), 0.0, 5);
    let infantry = Mover::infantry("line");
    let r = check(&bf, &mv(infantry, MoveKind::Advance, start, ahead(&start, 3.0)));
    assert_eq!(r.allowance, 6.0);
    assert!(r.is_legal());
    let r = check(&bf, &mv(infantry, MoveKind::Advance, start, ahead(&start, 3.5)));
    assert_eq!(r.allowance, 3.0);
    assert!(too_far(&r));
    // Starting inside the woods and leaving them: still the woods' rate. Line at (10, 8.5):
    // stands y = 7.75..8.5, in the woods; 2" takes it out: allowance 3", and no Disorder (it
    // did not enter).
    let inside = line((10.0, 8.5), 0.0, 5);
    let r = check(&bf, &mv(infantry, MoveKind::Advance, inside, ahead(&inside, 2.0)));
    assert_eq!(r.allowance, 3.0);
    assert!(!has(&r, |k| matches!(k, FindingKind::Disordered { .. })));
}

#[test]
fn c25_obstacle_cost_both_settings_for_a_fence_and_an_abatis() {
    // A line moves 4" north from (10, 5) to (10, 9), crossing the obstacle along y = 8.
    // Ch16 3.1 obstacle: line -2, road column -1. Ch16 4.2: fence 2", abatis 3".
    //                       higher (default)    formation_rate
    // line, fence           max(2, 2) = 2       2
    // line, abatis          max(2, 3) = 3       2
    // road column, fence    max(1, 2) = 2       1
    // road column, abatis   max(1, 3) = 3       1
    let cases = [
        ("rail_fence", "line", 2.0, 2.0),
        ("abatis", "line", 3.0, 2.0),
        ("rail_fence", "road_column", 2.0, 1.0),
        ("abatis", "road_column", 3.0, 1.0),
    ];
    for (obstacle, formation, higher, formation_rate) in cases {
        let bf = field(&format!("{obstacle} line (0, 8) (48, 8)"));
        let start = file();
        let step = mv(Mover::infantry(formation), MoveKind::Advance, start, ahead(&start, 4.0));
        let r = check(&bf, &step);
        assert_eq!(r.ground, 4.0);
        assert_eq!(r.used, 4.0 + higher, "{obstacle} {formation} higher: {:?}", r.used_parts);
        assert!(r.used_parts[1].rule.contains("RULINGS C25"));
        let rulings = Rulings { obstacle_cost: ObstacleCost::FormationRate, ..Rulings::default() };
        let r = check_with(&bf, rulings, &step);
        assert_eq!(r.used, 4.0 + formation_rate, "{obstacle} {formation} formation_rate");
    }
    // The line crossing the abatis: 4 + 3 = 7" of its 6": too far. It is also disordered
    // (formed troops crossing an abatis, Ch16 4.2); skirmishers are not.
    let bf = field("abatis line (0, 8) (48, 8)");
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, file(), ahead(&file(), 4.0)));
    assert!(too_far(&r));
    assert!(has(&r, |k| matches!(k, FindingKind::Disordered { .. })));
    let r = check(&bf, &mv(Mover::dismounted_cavalry(), MoveKind::Advance, file(), ahead(&file(), 4.0)));
    assert!(!has(&r, |k| matches!(k, FindingKind::Disordered { .. })));
}

#[test]
fn an_obstacle_the_row_cannot_cross() {
    // Guns by prolonge: obstacle impassable (Ch16 3.1).
    let bf = field("rail_fence line (0, 6) (48, 6)");
    let r = check(&bf, &mv(Mover::battery(false), MoveKind::Advance, file(), ahead(&file(), 2.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::CannotCross { .. })));
}

#[test]
fn a_stone_wall_crossing_needs_a_discipline_check() {
    // Ch16 4.2: 2" and a 4+ Discipline check. A line moves 3" across a wall at y = 7: 3 + 2 = 5".
    let bf = field("stone_wall \"Wall\" line (0, 7) (48, 7)");
    let start = line((10.0, 5.0), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 3.0)));
    assert_eq!(r.used, 5.0);
    assert!(r.is_legal());
    let check = r.effects().find(|f| matches!(f.kind, FindingKind::DisciplineCheck { .. })).unwrap();
    assert_eq!(check.kind, FindingKind::DisciplineCheck { obstacle: "Stone Wall".into(), target: 4 });
    assert_eq!(check.rule, "Ch16 4.2");
    // Stopping short of it, or running along it, is no crossing.
    let r = crate::battlefield::movement::check_move(
        &bf,
        data(),
        &Rulings::default(),
        &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 1.5)),
    );
    assert_eq!(r.used, 1.5);
    assert_eq!(r.effects().count(), 0);
}

#[test]
fn double_time_adds_three_inches_and_is_refused_when_disordered_or_hesitant() {
    // Ch16 2.3: +3" (the order's move_bonus) to an infantry line or column: 6 + 3 = 9".
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let infantry = Mover::infantry("line");
    let r = check(&bf, &mv(infantry, MoveKind::DoubleTime, start, ahead(&start, 9.0)));
    assert_eq!(r.allowance, 9.0);
    assert!(r.is_legal(), "{:?}", r.findings);
    assert!(too_far(&check(&bf, &mv(infantry, MoveKind::DoubleTime, start, ahead(&start, 9.1)))));
    // Disordered (RULE-05-4.4, RULINGS C6): refused, and the move is 6 - 2 = 4".
    let disordered = Mover { disordered: true, ..infantry };
    let r = check(&bf, &mv(disordered, MoveKind::DoubleTime, start, ahead(&start, 4.0)));
    assert_eq!(r.allowance, 4.0);
    let refused = r.violations().next().unwrap();
    assert!(matches!(refused.kind, FindingKind::Refused { action: Action::DoubleTime, .. }));
    assert!(refused.rule.contains("RULINGS C6"), "{refused}");
    // A Hesitant brigade may not double-time (Ch16 8.2).
    let hesitant = Mover { brigade_state: Some("hesitant"), ..infantry };
    let r = check(&bf, &mv(hesitant, MoveKind::DoubleTime, start, ahead(&start, 6.0)));
    assert_eq!(r.allowance, 6.0);
    assert!(has(&r, |k| matches!(k, FindingKind::Refused { action: Action::DoubleTime, .. })));
    // Nor cavalry, nor a unit out of communication (tier 4 cannot receive the pip).
    let r = check(&bf, &mv(Mover::mounted_cavalry("line"), MoveKind::DoubleTime, start, ahead(&start, 1.0)));
    assert_eq!(r.allowance, 9.0);
    assert!(has(&r, |k| matches!(k, FindingKind::Refused { action: Action::DoubleTime, .. })));
    let out = Mover { tier: Some(4), ..infantry };
    let r = check(&bf, &mv(out, MoveKind::DoubleTime, start, ahead(&start, 1.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::Refused { action: Action::DoubleTime, .. })));
}

#[test]
fn disorder_costs_two_inches_or_under_c6_halted_every_advance() {
    // RULE-05-4.4: the Disorder marker's move -2: a line in the open moves 6 - 2 = 4".
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let disordered = Mover { disordered: true, ..Mover::infantry("line") };
    let r = check(&bf, &mv(disordered, MoveKind::Advance, start, ahead(&start, 4.0)));
    assert_eq!(r.allowance, 4.0);
    assert_eq!(
        r.allowance_parts[1].to_string(),
        "Disorder -2.0\", Ch16 5.5, 5.6, 7.3, 8.3, RULE-05-4.4, RULINGS C6"
    );
    assert!(r.is_legal());
    assert!(too_far(&check(&bf, &mv(disordered, MoveKind::Advance, start, ahead(&start, 4.1)))));
    // RULINGS C6 `halted` (RULE-07-3.1): no advance at all, but it may still fall back.
    let halted = Rulings { disordered_movement: DisorderedMovement::Halted, ..Rulings::default() };
    let r = check_with(&bf, halted, &mv(disordered, MoveKind::Advance, start, ahead(&start, 1.0)));
    assert_eq!(r.allowance, 0.0);
    assert!(too_far(&r));
    let r = check_with(&bf, halted, &mv(disordered, MoveKind::FallBack, start, ahead(&start, -3.0)));
    assert!(r.is_legal(), "{:?}", r.findings);
}

#[test]
fn the_two_inch_minimum_for_a_formed_unit_in_command() {
    // Ch16 3.1. A disordered line in dense woods: min(4, 3) - 2 = 1", raised to 2".
    let bf = field("dense_woods polygon (0, 0) (48, 0) (48, 36) (0, 36)");
    let start = line((10.0, 5.0), 0.0, 5);
    let disordered = Mover { disordered: true, ..Mover::infantry("line") };
    let r = check(&bf, &mv(disordered, MoveKind::Advance, start, ahead(&start, 2.0)));
    assert_eq!(r.allowance, 2.0);
    assert!(r.is_legal());
    assert!(r.allowance_parts.last().unwrap().what.starts_with("minimum"));
    assert!(too_far(&check(&bf, &mv(disordered, MoveKind::Advance, start, ahead(&start, 2.1)))));
    // Tier 3 (12-24") is still in command (RULINGS G8); tier 4 is not: 1".
    let distant = Mover { tier: Some(3), ..disordered };
    assert_eq!(check(&bf, &mv(distant, MoveKind::Advance, start, ahead(&start, 1.0))).allowance, 2.0);
    let out = Mover { tier: Some(4), ..disordered };
    assert_eq!(check(&bf, &mv(out, MoveKind::Advance, start, ahead(&start, 1.0))).allowance, 1.0);
    // Guns by prolonge have no minimum: 0" in woods.
    assert_eq!(
        check(&bf, &mv(Mover::battery(false), MoveKind::Advance, file(), ahead(&file(), 1.0))).allowance,
        0.0
    );
}

#[test]
fn dense_woods_disorder_a_line_entering_but_not_skirmishers() {
    // Ch16 4.1, RULINGS G17. Dense woods north of y = 10. The line at (10, 5) moves 3" to
    // y = 8: it stays out. Into y = 10.5: its stands enter (rate 3", 5.5" is too far anyway).
    let bf = field("dense_woods \"Thicket\" polygon (0, 10) (48, 10) (48, 36) (0, 36)");
    let disordered = |r: &MoveReport| has(r, |k| matches!(k, FindingKind::Disordered { .. }));
    let start = line((10.0, 7.5), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 2.5)));
    assert!(!disordered(&r), "front on the edge: not entered");
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 3.0)));
    assert!(disordered(&r));
    assert_eq!(r.allowance, 3.0);
    let finding = r.effects().next().unwrap();
    assert_eq!(finding.rule, "Ch16 4.1, RULINGS G17");
    // Dismounted cavalry in skirmish order: no Disorder, and the woods' 3" still binds them.
    let r = check(&bf, &mv(Mover::dismounted_cavalry(), MoveKind::Advance, start, ahead(&start, 3.0)));
    assert!(!disordered(&r));
    assert_eq!(r.allowance, 3.0);
    // Light woods: a line moves through without disorder.
    let bf = field("light_woods polygon (0, 10) (48, 10) (48, 36) (0, 36)");
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 3.0)));
    assert!(!disordered(&r));
    assert_eq!(r.allowance, 4.0);
}

#[test]
fn a_major_river_is_crossed_only_at_its_ford() {
    // Ch16 4.1: impassable but at fords and bridges. River along y = 8, a ford at (30, 8).
    let bf = field("major_river \"Potomac\" line (0, 8) (48, 8) ford at (30, 8)");
    let infantry = Mover::infantry("road_column");
    let away = Body::new((10.0, 5.0), 0.0, Layout::new(4, Some(1), 0.0, 1.0));
    let r = check(&bf, &mv(infantry, MoveKind::Advance, away, ahead(&away, 5.0)));
    assert!(has(
        &r,
        |k| matches!(k, FindingKind::Impassable { feature: Some(name), .. } if name == "Potomac")
    ));
    // Impassable water: no minimum move either (Ch16 3.1).
    assert_eq!(r.allowance, 10.0);
    // At the ford (the crossing point (30, 8) is on it): legal, at the open rate.
    let at_ford = Body::new((30.0, 5.0), 0.0, Layout::new(4, Some(1), 0.0, 1.0));
    let r = check(&bf, &mv(infantry, MoveKind::Advance, at_ford, ahead(&at_ford, 5.0)));
    assert!(r.is_legal(), "{:?}", r.findings);
    // 1.0" from it still counts (CROSSING_TOLERANCE); 1.1" does not.
    let near = Body::new((31.0, 5.0), 0.0, Layout::new(4, Some(1), 0.0, 1.0));
    assert!(check(&bf, &mv(infantry, MoveKind::Advance, near, ahead(&near, 5.0))).is_legal());
    let beyond = Body::new((31.1, 5.0), 0.0, Layout::new(4, Some(1), 0.0, 1.0));
    assert!(!check(&bf, &mv(infantry, MoveKind::Advance, beyond, ahead(&beyond, 5.0))).is_legal());
}

#[test]
fn a_minor_stream_slows_the_move_and_a_bridge_does_not() {
    // Ch16 4.1: -2" (the line's 6" becomes 4"). A bridge at (30, 8) carries the column over.
    let bf = field("minor_stream \"Run\" line (0, 8) (48, 8) bridge at (30, 8)");
    let start = line((10.0, 5.0), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 4.0)));
    assert_eq!(r.allowance, 4.0);
    let bridged = line((30.0, 5.0), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, bridged, ahead(&bridged, 4.0)));
    assert_eq!(r.allowance, 6.0);
}

#[test]
fn a_charge_beyond_nine_inches_and_a_charge_halted_at_a_stream() {
    // Ch16 3.1, 7.1: the line charges 9". 9.0" is legal, 9.5" too far.
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let charge = MoveKind::Charge { target: None };
    let r = check(&bf, &mv(Mover::infantry("line"), charge, start, ahead(&start, 9.0)));
    assert_eq!(r.allowance, 9.0);
    assert!(r.is_legal(), "{:?}", r.findings);
    let r = check(&bf, &mv(Mover::infantry("line"), charge, start, ahead(&start, 9.5)));
    assert!(too_far(&r));
    // Cavalry charge 12".
    let r = check(&bf, &mv(Mover::mounted_cavalry("line"), charge, start, ahead(&start, 12.0)));
    assert!(r.is_legal());
    // A stream along y = 8 halts the charge where the front edge reaches the bank: the colours
    // at (10, 8), 3" along; the 9" path is cut there, so it is not too far.
    let bf = field("minor_stream \"Beaver Run\" line (0, 8) (48, 8)");
    let r = check(&bf, &mv(Mover::infantry("line"), charge, start, ahead(&start, 9.5)));
    let halt = r.effects().next().expect("halted");
    match &halt.kind {
        FindingKind::ChargeHalted { at, feature } => {
            assert!(close(at.position.0, 10.0) && close(at.position.1, 8.0), "{at:?}");
            assert_eq!(feature, "Beaver Run");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(halt.rule, "Ch16 4.1, RULINGS G10");
    assert!(close(r.ground, 3.0));
    assert!(r.is_legal());
}

#[test]
fn charges_the_row_or_the_unit_forbids() {
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let charge = MoveKind::Charge { target: None };
    let refused =
        |r: &MoveReport| has(r, |k| matches!(k, FindingKind::Refused { action: Action::Charge, .. }));
    // Road column: prohibited by its row (and its formation cannot assault).
    assert!(refused(&check(&bf, &mv(Mover::infantry("road_column"), charge, start, ahead(&start, 5.0)))));
    // Disordered (RULE-05-4.4, Ch16 7.1) or Hesitant (Ch16 8.2).
    let disordered = Mover { disordered: true, ..Mover::infantry("line") };
    assert!(refused(&check(&bf, &mv(disordered, charge, start, ahead(&start, 5.0)))));
    let hesitant = Mover { brigade_state: Some("hesitant"), ..Mover::infantry("line") };
    assert!(refused(&check(&bf, &mv(hesitant, charge, start, ahead(&start, 5.0)))));
    // A target must be in the front arc and within reach (Ch16 7.1).
    let behind = line((10.0, 0.0), 0.0, 5);
    let r = check(
        &bf,
        &mv(Mover::infantry("line"), MoveKind::Charge { target: Some(&behind) }, start, start_pose(&start)),
    );
    assert!(has(&r, |k| matches!(k, FindingKind::TargetOutOfArc)));
    let far = line((10.0, 15.0), 180.0, 5);
    let r = check(
        &bf,
        &mv(Mover::infantry("line"), MoveKind::Charge { target: Some(&far) }, start, ahead(&start, 9.0)),
    );
    assert!(has(
        &r,
        |k| matches!(k, FindingKind::TargetOutOfReach { range, reach } if *range == 10.0 && *reach == 9.0)
    ));
}

fn start_pose(body: &Body) -> Pose {
    Pose::of(body)
}

#[test]
fn a_retreat_is_six_inches_directly_back() {
    // Ch16 7.4, the `defeated` result's retreat 6. A line facing north at (10, 15): (10, 9).
    let bf = field("");
    let start = line((10.0, 15.0), 0.0, 5);
    let infantry = Mover::infantry("line");
    let retreat = MoveKind::Retreat { cavalry_melee: false };
    let r = check(&bf, &mv(infantry, retreat, start, ahead(&start, -6.0)));
    assert_eq!(r.allowance, 6.0);
    assert!(r.is_legal(), "{:?}", r.findings);
    // At an angle: to (11, 9.1), 6" away but 1" to the side.
    let r = check(&bf, &mv(infantry, retreat, start, Pose::new((11.0, 9.1), 0.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::NotStraightBack { drift, .. } if *drift == 1.0)));
    // Straight back but turned to face the enemy's way: also wrong.
    let r = check(&bf, &mv(infantry, retreat, start, Pose::new((10.0, 9.0), 10.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::NotStraightBack { .. })));
    // 5" is short of the 6".
    let r = check(&bf, &mv(infantry, retreat, start, ahead(&start, -5.0)));
    assert!(has(
        &r,
        |k| matches!(k, FindingKind::WrongDistance { moved, required } if *moved == 5.0 && *required == 6.0)
    ));
    // Cavalry beaten by cavalry retreat 9" (Ch16 10.1).
    let r = check(
        &bf,
        &mv(
            Mover::mounted_cavalry("line"),
            MoveKind::Retreat { cavalry_melee: true },
            start,
            ahead(&start, -9.0),
        ),
    );
    assert!(r.is_legal(), "{:?}", r.findings);
    // Off the table: not a violation for a retreat, but the unit is gone (RULINGS G5).
    let edge = line((10.0, 4.0), 0.0, 5);
    let r = check(&bf, &mv(infantry, retreat, edge, ahead(&edge, -6.0)));
    assert!(r.is_legal());
    assert!(has(&r, |k| matches!(k, FindingKind::LeavesTable)));
}

#[test]
fn fall_back_three_inches_and_consolidate_two() {
    // Ch16 3.3: up to 3" straight back keeping facing; Ch16 7.4: the victor's 2" forward or a
    // pivot of up to 45 degrees.
    let bf = field("");
    let start = line((10.0, 15.0), 0.0, 5);
    let infantry = Mover::infantry("line");
    assert!(check(&bf, &mv(infantry, MoveKind::FallBack, start, ahead(&start, -3.0))).is_legal());
    assert!(too_far(&check(&bf, &mv(infantry, MoveKind::FallBack, start, ahead(&start, -3.5)))));
    let r = check(&bf, &mv(infantry, MoveKind::FallBack, start, ahead(&start, 2.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::NotStraightBack { .. })));
    let r = check(&bf, &mv(infantry, MoveKind::Consolidate, start, ahead(&start, 2.0)));
    assert_eq!(r.allowance, 2.0);
    assert!(r.is_legal());
    assert!(has(
        &check(&bf, &mv(infantry, MoveKind::Consolidate, start, ahead(&start, -1.0))),
        |k| matches!(k, FindingKind::NotForward)
    ));
    // A 60-degree pivot about the colours is more than 45.
    let r = check(&bf, &mv(infantry, MoveKind::Consolidate, start, Pose::new(start.position, 60.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::OverPivot { .. })));
}

#[test]
fn a_formation_change_costs_half_the_move() {
    // Ch16 3.2: line to assault column costs half the move: 3" of 6" are taken from the
    // allowance, and the column may move the other 3".
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let change = MoveKind::ChangeFormation { to: "assault_column" };
    let r = check(&bf, &mv(Mover::infantry("line"), change, start, ahead(&start, 3.0)));
    assert_eq!((r.allowance, r.used), (3.0, 3.0));
    assert_eq!(
        r.allowance_parts[1].to_string(),
        "change from Line of Battle to Assault Column: half the move -3.0\", Ch16 3.2, Ch13 22.0"
    );
    assert!(r.is_legal());
    assert!(too_far(&check(&bf, &mv(Mover::infantry("line"), change, start, ahead(&start, 3.1)))));
    // Road column to line takes the whole move: it may not move at all.
    let column = file();
    let deploy = MoveKind::ChangeFormation { to: "line" };
    assert!(check(&bf, &mv(Mover::infantry("road_column"), deploy, column, Pose::of(&column))).is_legal());
    assert!(too_far(&check(&bf, &mv(Mover::infantry("road_column"), deploy, column, ahead(&column, 0.5)))));
    // A change the rule data does not price.
    let r = check(&bf, &mv(Mover::infantry("road_column"), change, column, Pose::of(&column)));
    assert!(has(&r, |k| matches!(k, FindingKind::UnpricedChange { .. })));
}

#[test]
fn dotc_d47_forming_road_column_from_line_takes_the_whole_move_by_default() {
    // dotc D47: Ch16 3.2 does not price line (or assault column) into road column. By default
    // (`whole_move`) the stdlib's `change road_column all` takes the whole move, the mirror of
    // road column into line: the regiment forms column where it stands and may not move on.
    // `half_move` takes 3" of a line's 6"; `unpriced` allows no such change. (Before D47 the
    // rule data priced none, so every setting read as `unpriced` does.)
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let form = MoveKind::ChangeFormation { to: "road_column" };
    let judge = |rulings: Rulings, inches: f64| {
        check_with(&bf, rulings, &mv(Mover::infantry("line"), form, start, ahead(&start, inches)))
    };
    let whole = judge(Rulings::default(), 0.0);
    assert!(whole.is_legal(), "{whole:#?}");
    assert_eq!(whole.allowance, 0.0);
    assert!(whole.allowance_parts[1].to_string().contains("dotc D47"), "{:?}", whole.allowance_parts);
    assert!(too_far(&judge(Rulings::default(), 0.5)));
    let assault_column = Mover::infantry("assault_column");
    assert!(check(&bf, &mv(assault_column, form, start, Pose::of(&start))).is_legal());
    let half = Rulings { road_column_change: RoadColumnChange::HalfMove, ..Rulings::default() };
    let r = judge(half, 3.0);
    assert_eq!((r.allowance, r.is_legal()), (3.0, true));
    assert!(too_far(&judge(half, 3.1)));
    let unpriced = Rulings { road_column_change: RoadColumnChange::Unpriced, ..Rulings::default() };
    let r = judge(unpriced, 0.0);
    assert!(has(&r, |k| matches!(k, FindingKind::UnpricedChange { .. })), "{r:#?}");
    // Road column into line is Ch16 3.2's own price, whatever the switch.
    let deploy = MoveKind::ChangeFormation { to: "line" };
    let column = file();
    assert!(
        check_with(&bf, unpriced, &mv(Mover::infantry("road_column"), deploy, column, Pose::of(&column)))
            .is_legal()
    );
}

/// The pose after wheeling `degrees` (positive: clockwise) about a front corner: the left one
/// for an anticlockwise wheel, the right one for a clockwise wheel.
fn wheeled(from: Pose, half_width: f64, degrees: f64) -> Pose {
    let frame = from.frame();
    let pivot = frame.to_table(if degrees < 0.0 { -half_width } else { half_width }, 0.0);
    let alpha = -degrees.to_radians();
    let (dx, dy) = (from.position.0 - pivot.x, from.position.1 - pivot.y);
    let (c, s) = (alpha.cos(), alpha.sin());
    Pose::new((pivot.x + c * dx - s * dy, pivot.y + s * dx + c * dy), from.facing + degrees)
}

#[test]
fn the_free_45_degree_wheel_and_a_second_wheel_that_costs_movement() {
    // Ch16 2.3: one wheel of up to 45 degrees is free. A 5" line wheels 45 degrees to its left
    // on its left flank: the colours, 2.5" from the pivot, travel 2.5 x pi/4 = 1.963"; that is
    // all it costs.
    let bf = field("");
    let start = line((20.0, 10.0), 0.0, 5);
    let first = wheeled(Pose::of(&start), 2.5, -45.0);
    let infantry = Mover::infantry("line");
    let quarter = std::f64::consts::FRAC_PI_4;
    let r = check(&bf, &mv(infantry, MoveKind::Wheel, start, first));
    assert!(close(r.ground, 2.5 * quarter), "{}", r.ground);
    assert!(close(r.used, 2.5 * quarter));
    // A second 45-degree wheel is paid at the outer flank: 5 x pi/4 = 3.927" for it, so the
    // whole move uses 1.963 + 3.927 = 5.890" (of 6"): ground 3.927 plus an extra of 1.963.
    let second = wheeled(first, 2.5, -45.0);
    let waypoints = [first];
    let two = Move { waypoints: &waypoints, ..mv(infantry, MoveKind::Wheel, start, second) };
    let r = check(&bf, &two);
    assert!(close(r.ground, 2.0 * 2.5 * quarter));
    assert!(close(r.used, 3.0 * 2.5 * quarter), "{}", r.used);
    assert!(r.is_legal());
    // One 90-degree wheel: the first 45 degrees free, the rest at the outer flank: the same.
    let r = check(&bf, &mv(infantry, MoveKind::Wheel, start, second));
    assert!(close(r.used, 3.0 * 2.5 * quarter), "{}", r.used);
    // And 3" straight on after the two wheels is too far: 5.890 + 3 > 6.
    let end = ahead(&Body { position: second.position, facing: second.facing, ..start }, 3.0);
    let waypoints = [first, second];
    let r = check(&bf, &Move { waypoints: &waypoints, ..mv(infantry, MoveKind::Advance, start, end) });
    assert!(too_far(&r));
}

#[test]
fn about_face_costs_an_inch_and_the_fire() {
    // Ch16 3.3. A 5-stand line facing north at (10, 10) (stands y = 9.25..10) about-faces: it
    // now faces south, its front the old rear edge: colours at (10, 9.25).
    let bf = field("");
    let start = line((10.0, 10.0), 0.0, 5);
    let r =
        check(&bf, &mv(Mover::infantry("line"), MoveKind::AboutFace, start, Pose::new((10.0, 9.25), 180.0)));
    assert_eq!((r.ground, r.used), (0.0, 1.0));
    assert!(r.is_legal());
    assert!(has(&r, |k| matches!(k, FindingKind::CannotFire)));
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::AboutFace, start, ahead(&start, 1.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::NoReversal)));
}

#[test]
fn a_turn_to_the_rear_written_as_a_wheel_is_too_far_and_the_finding_names_the_about_face() {
    // Ch16 2.3, 3.3 (issue 19: a limbered battery going back from the Seminary). A 5-stand line
    // facing north at (10, 10) moves to (10, 6) facing south in one leg: a 180-degree wheel, of
    // which 135 degrees cost the outer flank's extra, on top of the colours' ground: more than
    // the line's 6". The finding says that an about face first reverses it for its price. The
    // same move in two lines, an about face (1") and 3.25" straight back from the new front at
    // y = 9.25, is legal: 4.25" of 6".
    let bf = field("");
    let start = line((10.0, 10.0), 0.0, 5);
    let wheel =
        check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, Pose::new((10.0, 6.0), 180.0)));
    let finding = wheel.violations().find(|f| matches!(f.kind, FindingKind::TooFar { .. })).expect("too far");
    let text = finding.to_string();
    assert!(text.contains("an `about_face` line before the move") && text.contains("Ch16 3.3"), "{text}");
    let faced = Body { position: Pose::new((10.0, 9.25), 180.0).position, facing: 180.0, ..start };
    let back =
        check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, faced, Pose::new((10.0, 6.0), 180.0)));
    assert!(back.is_legal(), "{:?}", back.findings);
    assert!(close(back.used, 3.25), "{}", back.used);
    // A wheel of less than 135 degrees that is too far says nothing of an about face.
    let half =
        check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, Pose::new((4.0, 14.0), 270.0)));
    let text: Vec<String> = half.violations().map(|f| f.to_string()).collect();
    assert!(text.iter().any(|t| t.starts_with("moved ")), "{text:?}");
    assert!(!text.iter().any(|t| t.contains("about_face")), "{text:?}");
}

#[test]
fn the_interruption_point_of_a_straight_charge() {
    // Ch16 7.2. Charger: 5-stand line facing north at (10, 5). Target: 5-stand line facing
    // south at (10, 14): 9" away. The 4" line is 5" along: (10, 10); the 2" stall at (10, 12).
    let lines = assault_lines(data()).unwrap();
    assert_eq!(lines, AssaultLines { interruption: 4.0, stall: 2.0 });
    let bf = field("");
    let charger = line((10.0, 5.0), 0.0, 5);
    let target = line((10.0, 14.0), 180.0, 5);
    assert_eq!(
        interruption_point(&bf, &charger, &target, lines.interruption),
        Some(Pose::new((10.0, 10.0), 0.0))
    );
    assert_eq!(interruption_point(&bf, &charger, &target, lines.stall), Some(Pose::new((10.0, 12.0), 0.0)));
    // An oblique target: its nearest point (12.5 - 2.5 = ... ) the target at (16, 13) facing
    // south: stands x = 13.5..18.5, nearest point (13.5, 13): 3.5" across and 8" ahead, range
    // sqrt(12.25 + 64) = 8.732"; 4.732" along the line to it.
    let oblique = line((16.0, 13.0), 180.0, 5);
    let point = interruption_point(&bf, &charger, &oblique, 4.0).unwrap();
    let range = (12.25f64 + 64.0).sqrt();
    let along = range - 4.0;
    assert!(
        close(point.position.0, 10.0 + 3.5 * along / range)
            && close(point.position.1, 5.0 + 8.0 * along / range)
    );
    // A charger already within 4": where it stands (RULINGS G10).
    let near = line((10.0, 11.0), 0.0, 5);
    assert_eq!(interruption_point(&bf, &near, &target, 4.0), Some(Pose::of(&near)));
    // A stream at y = 8 halts the charge 3" along, before the line: no interruption point.
    let bf = field("minor_stream line (0, 8) (48, 8)");
    assert_eq!(interruption_point(&bf, &charger, &target, 4.0), None);
    // A stream at y = 11, beyond the 4" line (the front reaches it 6" along): the pause is
    // still at (10, 10).
    let bf = field("minor_stream line (0, 11) (48, 11)");
    assert_eq!(interruption_point(&bf, &charger, &target, 4.0), Some(Pose::new((10.0, 10.0), 0.0)));
    assert_eq!(interruption_point(&bf, &charger, &target, f64::NAN), None);
}

/// dotc D48: a retreat judged under `setting` with these friends about. The retreating line
/// faces north at (10, 20), five stands from x = 7.5 to 12.5 and y = 19.25 to 20, and goes 6"
/// straight back (south) to (10, 14) when nothing is in the way (Ch16 7.4).
fn blocked_retreat(setting: BlockedRetreat, friends: &[Body], end: (f64, f64)) -> MoveReport {
    let start = line((10.0, 20.0), 0.0, 5);
    let rulings = Rulings { blocked_retreat: setting, ..Rulings::default() };
    let retreat = MoveKind::Retreat { cavalry_melee: false };
    let mv = Move { friends, ..mv(Mover::infantry("line"), retreat, start, Pose::new(end, 0.0)) };
    check_with(&field(""), rulings, &mv)
}

fn blocked(report: &MoveReport) -> bool {
    has(report, |k| matches!(k, FindingKind::BlockedRetreat { .. }))
}

fn passage(report: &MoveReport) -> bool {
    has(report, |k| matches!(k, FindingKind::PassageOfLines { friend: 0 }))
}

/// A friend whose stands cover the spot 6" back: five stands facing north at (12, 14.5), from
/// x = 9.5 to 14.5 and y = 13.75 to 14.5. The retreat's stands there (y = 13.25 to 14, x = 7.5
/// to 12.5) would share x = 9.5..12.5, y = 13.75..14 with it.
fn friend_on_the_spot() -> [Body; 1] {
    [line((12.0, 14.5), 0.0, 5)]
}

#[test]
fn dotc_d48_pass_through_goes_on_through_the_friend_to_clear_ground() {
    // Ch16 7.4, Ch16 3.3, dotc D48 `pass_through` (the default): the friend's rear edge is
    // 6.25" behind the retreating line's front (y = 13.75), so its front goes there: (10, 13.75),
    // 6.25" straight back, a passage of lines with the friend, and legal.
    let friends = friend_on_the_spot();
    let r = blocked_retreat(BlockedRetreat::PassThrough, &friends, (10.0, 13.75));
    assert!(r.is_legal(), "{:?}", r.findings);
    assert!(passage(&r));
    assert!(close(r.allowance, 6.25), "{}", r.allowance);
    assert!(r.allowance_parts.iter().any(|p| close(p.inches, 0.25) && p.rule.contains("dotc D48")));
    // The plain 6" ends on the friend: wrong, and the finding says where it should be.
    let r = blocked_retreat(BlockedRetreat::PassThrough, &friends, (10.0, 14.0));
    let finding = r.findings.iter().find(|f| matches!(f.kind, FindingKind::BlockedRetreat { .. })).unwrap();
    assert_eq!(finding.rule, "Ch16 7.4, Ch16 3.3, dotc D48");
    assert!(matches!(
        finding.kind,
        FindingKind::BlockedRetreat { expected, setting: "pass_through", .. }
            if close(expected.0, 10.0) && close(expected.1, 13.75)
    ));
    assert!(has(&r, |k| matches!(k, FindingKind::EndsOnFriend { friend: 0 })));
    // Farther than the first clear ground is wrong too, and so is drifting sideways on the way.
    assert!(blocked(&blocked_retreat(BlockedRetreat::PassThrough, &friends, (10.0, 13.0))));
    assert!(blocked(&blocked_retreat(BlockedRetreat::PassThrough, &friends, (9.0, 13.75))));
}

#[test]
fn dotc_d48_sidestep_shifts_the_six_inches_the_least_that_clears() {
    // Ch16 7.4, dotc D48 `sidestep`: 6" back, the line's right flank must come to x = 9.5 (a
    // shift of 3" west) or its left flank to x = 14.5 (7" east): the least is 3" west, (7, 14).
    // It steps aside from the friend: no passage of lines.
    let friends = friend_on_the_spot();
    let r = blocked_retreat(BlockedRetreat::Sidestep, &friends, (7.0, 14.0));
    assert!(r.is_legal(), "{:?}", r.findings);
    assert!(!passage(&r));
    assert!(close(r.allowance, 6.0));
    // The other side, farther, is wrong; so is going through as under `pass_through`.
    assert!(blocked(&blocked_retreat(BlockedRetreat::Sidestep, &friends, (17.0, 14.0))));
    assert!(blocked(&blocked_retreat(BlockedRetreat::Sidestep, &friends, (10.0, 13.75))));
    // A friend square behind (x = 7.5 to 12.5): 5" either way, and either side will do.
    let square = [line((10.0, 14.5), 0.0, 5)];
    for x in [5.0, 15.0] {
        let r = blocked_retreat(BlockedRetreat::Sidestep, &square, (x, 14.0));
        assert!(r.is_legal(), "{x}: {:?}", r.findings);
    }
}

#[test]
fn dotc_d48_stop_short_stops_in_contact_with_the_first_friend_in_the_way() {
    // Ch16 7.4, dotc D48 `stop_short`: the line's rear rank (0.75" deep) meets the friend's
    // front edge (y = 14.5) when its front is on y = 15.25: 4.75" back, no passage, legal.
    let friends = friend_on_the_spot();
    let r = blocked_retreat(BlockedRetreat::StopShort, &friends, (10.0, 15.25));
    assert!(r.is_legal(), "{:?}", r.findings);
    assert!(!passage(&r));
    assert!(close(r.allowance, 4.75), "{}", r.allowance);
    assert!(blocked(&blocked_retreat(BlockedRetreat::StopShort, &friends, (10.0, 14.0))));
    // A friend in the way with clear ground beyond (y = 16.25 to 17): `stop_short` stops at
    // it, 2.25" back; `pass_through` and `sidestep` go the 6" through it, a passage of lines.
    let way = [line((10.0, 17.0), 0.0, 5)];
    assert!(blocked_retreat(BlockedRetreat::StopShort, &way, (10.0, 17.75)).is_legal());
    assert!(blocked(&blocked_retreat(BlockedRetreat::StopShort, &way, (10.0, 14.0))));
    for setting in [BlockedRetreat::PassThrough, BlockedRetreat::Sidestep] {
        let r = blocked_retreat(setting, &way, (10.0, 14.0));
        assert!(r.is_legal() && passage(&r), "{setting:?}: {:?}", r.findings);
    }
}

#[test]
fn dotc_d48_a_retreat_no_friend_blocks_is_six_inches_straight_back_under_every_setting() {
    // Ch16 7.4: a friend beside the spot (x = 13 to 18, half an inch off the line's flank) or
    // none changes nothing.
    let beside = [line((15.5, 14.5), 0.0, 5)];
    for setting in [BlockedRetreat::PassThrough, BlockedRetreat::Sidestep, BlockedRetreat::StopShort] {
        for friends in [&beside[..], &[]] {
            let r = blocked_retreat(setting, friends, (10.0, 14.0));
            assert!(r.is_legal() && !blocked(&r), "{setting:?}: {:?}", r.findings);
            assert!(close(r.allowance, 6.0));
        }
    }
}

#[test]
fn passing_through_a_friend_is_a_passage_of_lines() {
    // Ch16 3.3. A friend 5 stands facing north at (10, 8): stands y = 7.25..8. The line at
    // (10, 5) moves 5" to (10, 10): its stands (y = 9.25..10) end clear, having passed through.
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let friends = [line((10.0, 8.0), 0.0, 5)];
    let through = Move {
        friends: &friends,
        ..mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 5.0))
    };
    let r = check(&bf, &through);
    let passage = r.effects().next().unwrap();
    assert_eq!(passage.kind, FindingKind::PassageOfLines { friend: 0 });
    assert_eq!(passage.rule, "Ch16 3.3, RULE-07-1.4, RULINGS C8");
    assert!(r.is_legal());
    // Stopping on it is not allowed; stopping short of it (touching) is no passage.
    let onto = Move { end: ahead(&start, 2.5), ..through };
    assert!(has(&check(&bf, &onto), |k| matches!(k, FindingKind::EndsOnFriend { friend: 0 })));
    let short = Move { end: ahead(&start, 2.25), ..through };
    assert!(check(&bf, &short).findings.is_empty());
}

#[test]
fn leaving_the_table_is_a_violation() {
    // 48" x 36": a line at (10, 34) moving 3" north ends with its front at y = 37.
    let bf = field("");
    let start = line((10.0, 34.0), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 3.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::OffTable)));
    // Its front exactly on the edge is still on the table.
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, ahead(&start, 2.0)));
    assert!(r.is_legal());
}

#[test]
fn the_road_rate_needs_the_whole_path_on_the_road() {
    // Ch16 3.1: road column 12" on a road, 10" off it. Road along x = 10; the colours keep
    // within 0.5" of it (ROAD_TOLERANCE), or stray 0.6" at the end.
    let bf = field("road line (10, 0) (10, 36)");
    let column = Mover::infantry("road_column");
    let r = check(&bf, &mv(column, MoveKind::Advance, file(), Pose::new((10.5, 16.0), 0.0)));
    assert_eq!(r.allowance, 12.0);
    assert!(r.is_legal(), "{:?}", r.findings);
    let r = check(&bf, &mv(column, MoveKind::Advance, file(), Pose::new((10.6, 16.0), 0.0)));
    assert_eq!(r.allowance, 10.0);
    assert!(too_far(&r));
    // A road through dense woods: the road rate, not the woods'.
    let bf = field("road line (10, 0) (10, 36)\ndense_woods polygon (0, 0) (48, 0) (48, 36) (0, 36)");
    assert_eq!(check(&bf, &mv(column, MoveKind::Advance, file(), ahead(&file(), 1.0))).allowance, 12.0);
}

#[test]
fn ground_conditions_slow_infantry_and_cavalry() {
    // Ch13 21.0: soft -1" to infantry and cavalry; deep mud -2" infantry (no double-quick off
    // the road), -4" cavalry; limbered guns moving off the road are stuck.
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let moved = |mover: Mover<'static>, kind: MoveKind<'static>, ground: Ground| {
        check(&bf, &Move { ground: Some(ground), ..mv(mover, kind, start, ahead(&start, 1.0)) })
    };
    assert_eq!(moved(Mover::infantry("line"), MoveKind::Advance, Ground::Soft).allowance, 5.0);
    assert_eq!(moved(Mover::infantry("line"), MoveKind::Advance, Ground::Mud).allowance, 4.0);
    assert_eq!(moved(Mover::mounted_cavalry("line"), MoveKind::Advance, Ground::Mud).allowance, 5.0);
    assert_eq!(moved(Mover::brigadier(), MoveKind::Advance, Ground::Mud).allowance, 12.0);
    assert_eq!(moved(Mover::infantry("line"), MoveKind::Advance, Ground::Firm).allowance, 6.0);
    let r = moved(Mover::infantry("line"), MoveKind::DoubleTime, Ground::Mud);
    assert!(has(&r, |k| matches!(k, FindingKind::Refused { action: Action::DoubleTime, .. })));
    let r = moved(Mover::battery(true), MoveKind::Advance, Ground::Mud);
    assert!(has(&r, |k| matches!(k, FindingKind::Stuck)));
    assert_eq!(Ground::from_word("mud"), Some(Ground::Mud));
}

#[test]
fn limbering_and_dismounting_cost_movement() {
    // A foot battery limbers with its whole move (Ch16 3.1 `limber all`, Ch8 2.0): 8" of 8"
    // are taken, none is left.
    let bf = field("");
    let start = file();
    let r = check(&bf, &mv(Mover::battery(false), MoveKind::Limber, start, Pose::of(&start)));
    assert_eq!((r.allowance, r.used), (0.0, 0.0));
    assert!(r.is_legal());
    assert!(too_far(&check(&bf, &mv(Mover::battery(false), MoveKind::Limber, start, ahead(&start, 0.5)))));
    // Unlimbering: it cannot fire this turn (RULINGS C31).
    let r = check(&bf, &mv(Mover::battery(true), MoveKind::Unlimber, start, Pose::of(&start)));
    assert!(has(&r, |k| matches!(k, FindingKind::CannotFire)));
    // Horse artillery: 4" of its 10" (Ch16 10.4), leaving 6", and it may fire.
    let r = check(&bf, &mv(Mover::horse_battery(true), MoveKind::Unlimber, start, ahead(&start, 6.0)));
    assert_eq!((r.allowance, r.used), (6.0, 6.0));
    assert!(r.findings.is_empty(), "{:?}", r.findings);
    // Soft ground: unlimbering costs 2 pips (Ch13 21.0).
    let soft = Move {
        ground: Some(Ground::Soft),
        ..mv(Mover::horse_battery(true), MoveKind::Unlimber, start, Pose::of(&start))
    };
    assert!(has(&check(&bf, &soft), |k| matches!(k, FindingKind::UnlimberPips { pips: 2 })));
    // Cavalry dismounting: half of its 9" (Ch16 10.2): 4.5" left.
    let r = check(&bf, &mv(Mover::mounted_cavalry("line"), MoveKind::Dismount, start, ahead(&start, 4.5)));
    assert_eq!((r.allowance, r.used), (4.5, 4.5));
    assert!(r.is_legal());
}

#[test]
fn out_of_communication_moves_only_straight_ahead() {
    // Ch16 2.2 tier 4, RULINGS G8: free moves only straight ahead or falling back.
    let bf = field("");
    let start = line((20.0, 10.0), 0.0, 5);
    let out = Mover { tier: Some(4), ..Mover::infantry("line") };
    assert!(check(&bf, &mv(out, MoveKind::Advance, start, ahead(&start, 4.0))).is_legal());
    let r = check(&bf, &mv(out, MoveKind::Advance, start, Pose::new((22.0, 13.0), 0.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::Restricted)));
    let r = check(&bf, &mv(out, MoveKind::Wheel, start, wheeled(Pose::of(&start), 2.5, 30.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::Restricted)));
}

#[test]
fn open_order_ignores_terrain_slowdown() {
    // Ch13 22.0: 6" in the open, 5" in woods or rough whatever the woods' cap; no Disorder
    // entering dense woods.
    let bf = field("dense_woods polygon (0, 10) (48, 10) (48, 36) (0, 36)");
    let start = line((10.0, 7.5), 0.0, 5);
    let r = check(&bf, &mv(Mover::infantry("open_order"), MoveKind::Advance, start, ahead(&start, 5.0)));
    assert_eq!(r.allowance, 5.0);
    assert!(r.is_legal(), "{:?}", r.findings);
}

#[test]
fn nothing_odd_panics() {
    let bf = field("");
    let start = line((10.0, 5.0), 0.0, 5);
    let r =
        check(&bf, &mv(Mover::infantry("line"), MoveKind::Advance, start, Pose::new((f64::NAN, 1.0), 0.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::BadPose)));
    let r = check(&bf, &mv(Mover::infantry("skirmish"), MoveKind::Advance, start, ahead(&start, 1.0)));
    assert!(has(&r, |k| matches!(k, FindingKind::NoMovementRow { .. })));
    let r = check(
        &bf,
        &mv(Mover { tier: Some(9), ..Mover::infantry("line") }, MoveKind::Advance, start, ahead(&start, 1.0)),
    );
    assert!(has(&r, |k| matches!(k, FindingKind::MissingRuleData { .. })));
    // A charge a billion inches long along a road and across a stream ends in findings, not a
    // hang: the charge halts at the bank 3" along, and the column leaves the table. (The road
    // and stream run the longest a scenario may draw them, 2400": dotc_lang::ranges::COORDINATE.)
    let bf = field("road line (0, 0) (2400, 0)\nminor_stream line (0, 8) (2400, 8)");
    let far = Pose::new((10.0, 1e9), 0.0);
    let r = check(&bf, &mv(Mover::infantry("line"), MoveKind::Charge { target: None }, start, far));
    assert!(has(&r, |k| matches!(k, FindingKind::ChargeHalted { .. })));
    let r = check(
        &bf,
        &mv(Mover::infantry("road_column"), MoveKind::Advance, start, Pose::new((1e9, 0.0), 90.0)),
    );
    assert!(!r.is_legal());
}

// ------------------------------------------------------------------ properties

/// A unit of any row with any layout, and the straight or wheeling path it takes.
fn any_move() -> impl Strategy<Value = (Mover<'static>, Body, Pose, Pose)> {
    let movers = prop::sample::select(table().into_iter().map(|(_, m, ..)| m).collect::<Vec<_>>());
    (
        movers,
        (5.0..40.0f64, 5.0..30.0f64, prop_oneof![Just(0.0), 0.0..360.0f64]),
        (1u32..7, prop::option::of(1u32..3)),
        (-3.0..3.0f64, 0.0..12.0f64, prop_oneof![Just(0.0), -90.0..90.0f64]),
        (-3.0..3.0f64, 0.0..6.0f64, prop_oneof![Just(0.0), -60.0..60.0f64]),
    )
        .prop_map(|(mover, (x, y, facing), (stands, frontage), first, second)| {
            let start = Body::new((x, y), facing, Layout::new(stands, frontage, 0.0, 1.0));
            let waypoint = {
                let p = start.frame().to_table(first.0, first.1);
                Pose::new((p.x, p.y), facing + first.2)
            };
            let end = {
                let p = waypoint.frame().to_table(second.0, second.1);
                Pose::new((p.x, p.y), waypoint.facing + second.2)
            };
            (mover, start, waypoint, end)
        })
}

fn any_rulings() -> impl Strategy<Value = Rulings> {
    (any::<bool>(), any::<bool>(), any::<bool>()).prop_map(|(halted, woods, obstacles)| Rulings {
        disordered_movement: if halted { DisorderedMovement::Halted } else { DisorderedMovement::Slowed },
        woods_speed: if woods { WoodsSpeed::FormationRate } else { WoodsSpeed::Lower },
        obstacle_cost: if obstacles { ObstacleCost::FormationRate } else { ObstacleCost::Higher },
        ..Rulings::default()
    })
}

fn any_kind() -> impl Strategy<Value = MoveKind<'static>> {
    prop::sample::select(vec![
        MoveKind::Advance,
        MoveKind::DoubleTime,
        MoveKind::Wheel,
        MoveKind::Charge { target: None },
        MoveKind::FallBack,
        MoveKind::Consolidate,
        MoveKind::ChangeFormation { to: "assault_column" },
        MoveKind::Limber,
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn disorder_never_raises_the_allowance_nor_lowers_the_cost(
        (mover, start, waypoint, end) in any_move(), rulings in any_rulings(), kind in any_kind(),
    ) {
        let bf = field("light_woods polygon (20, 0) (30, 0) (30, 36) (20, 36)\nrail_fence line (0, 20) (48, 20)");
        let waypoints = [waypoint];
        let steady = Move { waypoints: &waypoints, ..mv(mover, kind, start, end) };
        let shaken = Move { mover: Mover { disordered: true, ..mover }, ..steady };
        let (a, b) = (check_with(&bf, rulings, &steady), check_with(&bf, rulings, &shaken));
        prop_assert!(b.allowance <= a.allowance, "{} > {}", b.allowance, a.allowance);
        prop_assert!(b.used >= a.used - 1e-9);
        prop_assert!(a.allowance >= 0.0 && b.allowance >= 0.0);
    }

    #[test]
    fn an_obstacle_on_the_path_never_lowers_the_cost(
        (mover, start, waypoint, end) in any_move(), rulings in any_rulings(), kind in any_kind(),
        fence in prop::sample::select(vec!["rail_fence", "stone_wall", "hedge", "abatis", "breastworks"]),
    ) {
        // A fence across the middle of the path (from the start to the end, at right angles).
        let (a, b) = (start.position, end.position);
        let middle = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        let (dx, dy) = (b.1 - a.1, a.0 - b.0);
        let fenced = field(&format!(
            "{fence} line ({}, {}) ({}, {})",
            middle.0 - dx, middle.1 - dy, middle.0 + dx, middle.1 + dy
        ));
        let waypoints = [waypoint];
        let step = Move { waypoints: &waypoints, ..mv(mover, kind, start, end) };
        let (open, crossed) = (check_with(&field(""), rulings, &step), check_with(&fenced, rulings, &step));
        prop_assert!(crossed.used >= open.used - 1e-9, "{} < {}", crossed.used, open.used);
        prop_assert!(crossed.allowance <= open.allowance + 1e-9);
    }

    #[test]
    fn rougher_terrain_never_raises_the_allowance(
        (mover, start, waypoint, end) in any_move(), rulings in any_rulings(), kind in any_kind(),
        disordered in any::<bool>(), tier in prop::option::of(1u32..5),
    ) {
        // The same move in the open, a cornfield, light woods, dense woods: each rougher.
        let waypoints = [waypoint];
        let mover = Mover { disordered, tier, ..mover };
        let step = Move { waypoints: &waypoints, ..mv(mover, kind, start, end) };
        let mut last: Option<MoveReport> = None;
        for kind in ["", "light_woods", "dense_woods"] {
            let bf = if kind.is_empty() {
                field("")
            } else {
                field(&format!("{kind} polygon (-10, -10) (60, -10) (60, 50) (-10, 50)"))
            };
            let r = check_with(&bf, rulings, &step);
            prop_assert!(r.allowance >= 0.0);
            if let Some(previous) = &last {
                prop_assert!(r.allowance <= previous.allowance + 1e-9, "{kind}: {} > {}", r.allowance, previous.allowance);
                prop_assert!(r.used >= previous.used - 1e-9);
            }
            last = Some(r);
        }
    }

    #[test]
    fn the_allowance_is_never_negative(
        (mover, start, waypoint, end) in any_move(), rulings in any_rulings(), kind in any_kind(),
        disordered in any::<bool>(), tier in prop::option::of(0u32..6),
        ground in prop::option::of(prop::sample::select(vec![Ground::Firm, Ground::Soft, Ground::Mud])),
    ) {
        let bf = field("dense_woods polygon (0, 0) (48, 0) (48, 36) (0, 36)\nminor_stream line (0, 18) (48, 18)");
        let waypoints = [waypoint];
        let mover = Mover { disordered, tier, brigade_state: Some("hesitant"), ..mover };
        let step = Move { waypoints: &waypoints, ground, ..mv(mover, kind, start, end) };
        let r = check_with(&bf, rulings, &step);
        prop_assert!(r.allowance >= 0.0 && r.allowance.is_finite());
        prop_assert!(r.used >= 0.0 && r.used.is_finite());
    }
}

/// Ch16 4.1 (the Sunken Road: "Full Turn to Exit"): a move that climbs out of ground that takes
/// a full turn to leave is the whole move, ending at most EXIT_CLEARANCE (1") clear of it. A road
/// 3" deep from y = 10 to 13; a line facing north with its front at y = 12.5 is in it. Its
/// front goes 1" ahead plus its depth: its rear ends 0.5" clear, legal. 5" ahead: its rear
/// is 4.5" clear, refused. Moving along the road leaves nothing; a leader rides out freely;
/// a retreat is a fixed move (dotc D46).
#[test]
fn ch16_4_1_climbing_out_of_a_sunken_road_is_the_whole_move() {
    let bf = field("sunken_road \"The Lane\" polygon (0, 10) (48, 10) (48, 13) (0, 13)");
    let start = line((10.0, 12.5), 0.0, 5);
    let depth = start.layout.depth();
    let exits = |r: &MoveReport| has(r, |k| matches!(k, FindingKind::ExitTakesTheTurn { .. }));
    let infantry = Mover::infantry("line");
    let r = check(&bf, &mv(infantry, MoveKind::Advance, start, ahead(&start, 1.0 + depth)));
    assert!(!exits(&r) && r.is_legal(), "{:?}", r.findings);
    let r = check(&bf, &mv(infantry, MoveKind::Advance, start, ahead(&start, 5.0)));
    assert!(
        has(&r, |k| matches!(k, FindingKind::ExitTakesTheTurn { beyond, feature: Some(f), .. }
            if close(*beyond, 5.0 - 0.5 - depth) && f == "The Lane")),
        "{:?}",
        r.findings
    );
    assert!(!r.is_legal());
    let refused = r.findings.iter().find(|f| matches!(f.kind, FindingKind::ExitTakesTheTurn { .. })).unwrap();
    assert_eq!(refused.rule, "Ch16 4.1");
    assert!(refused.kind.to_string().contains("climbing out of Sunken Road"), "{}", refused.kind);
    // Along the road, staying in it: nothing to climb.
    let along = Pose::new((14.0, 12.5), 0.0);
    assert!(!exits(&check(&bf, &mv(infantry, MoveKind::Advance, start, along))));
    // A charge out of it is a move of the unit's own: the same.
    let r = check(&bf, &mv(infantry, MoveKind::Charge { target: None }, start, ahead(&start, 5.0)));
    assert!(exits(&r), "{:?}", r.findings);
    // A leader rides out as he pleases; a retreat is the melee result's distance.
    let rider = Body::new((10.0, 12.0), 0.0, Layout::new(1, None, 0.0, 1.0));
    assert!(!exits(&check(&bf, &mv(Mover::brigadier(), MoveKind::Advance, rider, ahead(&rider, 5.0)))));
    let backs = line((10.0, 10.5), 180.0, 5);
    let r = check(&bf, &mv(infantry, MoveKind::Retreat { cavalry_melee: false }, backs, ahead(&backs, -6.0)));
    assert!(!exits(&r), "{:?}", r.findings);
}
