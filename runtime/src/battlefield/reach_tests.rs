//! The reach search on small hand-worked tables (48" x 36"). Units stand on cell centres (x.25
//! or x.75) so that distances along the grid's axes are exact; the side moves on the odd turns
//! (turn 1 is its first move), so the k-th move is turn 2k - 1.

use super::*;
use crate::battlefield::tests::field;
use crate::rulings::RoadColumnChange;

const MOVES: [u16; 8] = [1, 3, 5, 7, 9, 11, 13, 15];

fn data() -> &'static RuleData {
    dotc_lang::stdlib()
}

/// The ways infantry starting in `formation` moves over `grid`.
fn infantry_ways(grid: &Grid, bf: &Battlefield, rulings: &Rulings, formation: &str) -> Moves {
    Row::for_unit(grid, bf, data(), rulings, None, false, MoverKind::Infantry, Some(formation))
}

/// The earliest turn infantry starting in `formation` at `from` reaches the cell of `to`.
fn infantry(terrain: &str, formation: &str, from: (f64, f64), to: (f64, f64)) -> u16 {
    let bf = field(terrain);
    let grid = Grid::new(&bf, CELL).expect("a table");
    let rows = infantry_ways(&grid, &bf, &Rulings::default(), formation);
    let turns = reach(&grid, &rows, &[from], 0, &MOVES);
    grid.earliest_near(&turns, to, 0.0)
}

#[test]
fn ch16_3_1_open_ground_an_assault_column_moves_8_inches() {
    // Ch16 3.1: assault column 8" in the open. 24" east: 3 moves (turns 1, 3, 5); 24.5": a 4th
    // move, turn 7. The first move: 8" exactly is within the allowance (RULINGS G4's <=), 8.5"
    // is not.
    let from = (2.25, 10.25);
    assert_eq!(infantry("", "assault_column", from, (26.25, 10.25)), 5);
    assert_eq!(infantry("", "assault_column", from, (26.75, 10.25)), 7);
    assert_eq!(infantry("", "assault_column", from, (10.25, 10.25)), 1);
    assert_eq!(infantry("", "assault_column", from, (10.75, 10.25)), 3);
}

#[test]
fn ch16_3_2_a_line_becomes_an_assault_column_for_half_a_move_and_a_road_column_for_a_whole_one() {
    // Ch16 3.2: a line may become an assault column for half a move (4" of the column's 8" left)
    // and go on at 8": 4, 12, 20, 28, 36; a line alone goes 6, 12, 18, 24, 30. Forming road
    // column takes the whole move (dotc D47), then 10" a move: 0, 10, 20, 30, 40. So: 6" on the
    // first move (turn 1), 12" on the second (turn 3), 20" on the third (turn 5, column or road
    // column), 30" on the fourth (turn 7, road column), 40" on the fifth (turn 9). Half an inch
    // more is a move later each time (RULINGS G4's <=). Were the change free, 8" would be a
    // first move and 24" a third.
    let from = (2.25, 10.25);
    let line = |to: f64| infantry("", "line", from, (2.25 + to, 10.25));
    assert_eq!(line(6.0), 1);
    assert_eq!(line(6.5), 3);
    assert_eq!(line(8.0), 3);
    assert_eq!(line(12.0), 3);
    assert_eq!(line(12.5), 5);
    assert_eq!(line(20.0), 5);
    assert_eq!(line(20.5), 7);
    assert_eq!(line(24.0), 7);
    assert_eq!(line(30.0), 7);
    assert_eq!(line(30.5), 9);
    assert_eq!(line(40.0), 9);
}

#[test]
fn dotc_d47_road_column_change_prices_the_search_as_it_prices_the_judge() {
    // dotc D47, Ch16 3.1 road march: a line on a road, 46" to go. The assault column marches 9"
    // a move on the road: 9, 18, 27, 36, 45. `whole_move` (the default): road column after a
    // whole move, then 12" a move: 0, 12, 24, 36, 48, so 46" on the fifth move (turn 9) and 40"
    // on the fifth too; `half_move`: 6" (half the road column's 12") then 12": 6, 18, 30, 42,
    // so 40" on the fourth (turn 7); `unpriced`: no road column, the column's 45" falls short
    // of 46" on the fifth move: turn 11.
    let from = (1.25, 10.25);
    let moved = |change: RoadColumnChange, to: f64| {
        let bf = field("road \"Pike\" line (0, 10.25) (48, 10.25)");
        let grid = Grid::new(&bf, CELL).expect("a table");
        let rulings = Rulings { road_column_change: change, ..Rulings::default() };
        let ways = infantry_ways(&grid, &bf, &rulings, "line");
        let turns = reach(&grid, &ways, &[from], 0, &MOVES);
        grid.earliest_near(&turns, (from.0 + to, from.1), 0.0)
    };
    assert_eq!(moved(RoadColumnChange::WholeMove, 46.0), 9);
    assert_eq!(moved(RoadColumnChange::WholeMove, 40.0), 9);
    assert_eq!(moved(RoadColumnChange::HalfMove, 40.0), 7);
    assert_eq!(moved(RoadColumnChange::Unpriced, 46.0), 11);
}

#[test]
fn ch16_7_1_a_charge_reaches_9_inches_but_not_across_water() {
    // Ch16 3.1, 7.1: an assault column's `charge 9`. Ready at (10.25, 10.25) on turn 1, its charge
    // reaches (19.25, 10.25) from turn 1 and not (19.75, 10.25). A stream at x = 15 between
    // halts a charge (RULINGS G10): then nothing beyond it.
    let charge = |terrain: &str, to: (f64, f64)| {
        let bf = field(terrain);
        let grid = Grid::new(&bf, CELL).expect("a table");
        let ways = infantry_ways(&grid, &bf, &Rulings::default(), "assault_column");
        let mut ready = vec![NEVER; grid.width * grid.height];
        ready[grid.cell_of((10.25, 10.25))] = 1;
        let row = &ways.rows[ways.start];
        assert_eq!(row.charge, Some(9.0));
        let reached = charge_reach(&grid, row, &ready, 9.0, 15);
        grid.earliest_near(&reached, to, 0.0)
    };
    assert_eq!(charge("", (19.25, 10.25)), 1);
    assert_eq!(charge("", (19.75, 10.25)), NEVER);
    assert_eq!(charge("minor_stream \"Run\" line (15, 0) (15, 36)", (17.25, 10.25)), NEVER);
    assert_eq!(charge("minor_stream \"Run\" line (15, 0) (15, 36)", (14.25, 10.25)), 1);
}

#[test]
fn ch16_3_1_a_road_column_moves_10_inches_in_the_open() {
    // Ch16 3.1: road column 10" in the open. 30" east: 3 moves, turn 5; 30.5": turn 7.
    let from = (2.25, 10.25);
    assert_eq!(infantry("", "road_column", from, (32.25, 10.25)), 5);
    assert_eq!(infantry("", "road_column", from, (32.75, 10.25)), 7);
}

#[test]
fn ch16_3_1_road_march_12_inches_only_while_every_point_is_on_the_road() {
    // Ch16 3.1: road column 12" along a road. 36" along it: 3 moves, turn 5.
    // 36" along and 3" off it: two road moves (24") to (26.25, 10.25), then a third move in the
    // open at 10" falls short (hypot(12, 3) = 12.37"), so a fourth: turn 7.
    let road = "road \"Pike\" line (0, 10.25) (48, 10.25)";
    let from = (2.25, 10.25);
    assert_eq!(infantry(road, "road_column", from, (38.25, 10.25)), 5);
    assert_eq!(infantry(road, "road_column", from, (38.25, 13.25)), 7);
    // Without the road the same 36" takes 4 moves at 10".
    assert_eq!(infantry("", "road_column", from, (38.25, 10.25)), 7);
}

#[test]
fn ch16_4_1_a_major_river_is_crossed_only_at_its_ford() {
    // Ch16 4.1: a major river is impassable; a ford within 1" (CROSSING_TOLERANCE) of the
    // crossing lets it over. From (12.25, 10.25) to (28.25, 10.25), 16" straight across the
    // river at x = 20: the way round by the ford at (20, 30) crosses at y = 29 at best:
    // 2 x hypot(7.75, 18.75) = 2 x 20.29 = 40.58", so at 8" a move (assault column) 6 moves:
    // turn 11. On the near bank 16" north takes 2 moves: turn 3.
    let river = "major_river \"River\" line (20, 0) (20, 36) ford at (20, 30)";
    let from = (12.25, 10.25);
    assert_eq!(infantry(river, "assault_column", from, (28.25, 10.25)), 11);
    assert_eq!(infantry(river, "assault_column", from, (12.25, 26.25)), 3);
    // With no ford it is never crossed.
    let no_ford = "major_river \"River\" line (20, 0) (20, 36)";
    assert_eq!(infantry(no_ford, "assault_column", from, (28.25, 10.25)), NEVER);
}

#[test]
fn ch16_4_1_a_minor_stream_slows_the_whole_move_that_crosses_it() {
    // Ch16 4.1, RULINGS C24: a minor stream is open -2, and the most restrictive terrain crossed
    // sets the rate for the whole move. A road column (10") 9" from a stream at x = 11.25 wants
    // (20.25, 10.25), 18" east: move 1 stops short of the stream (at most 10", x <= 11), move 2
    // crosses it at 8": from x = 11.0 at best to 19.0, short of 20.25; so move 3: turn 5.
    // Across a ford at the crossing point, move 2 goes the full 10" (x = 21): turn 3.
    let from = (2.25, 10.25);
    let stream = "minor_stream \"Run\" line (11.25, 0) (11.25, 36)";
    assert_eq!(infantry(stream, "road_column", from, (20.25, 10.25)), 5);
    let forded = "minor_stream \"Run\" line (11.25, 0) (11.25, 36) ford at (11.25, 10.25)";
    assert_eq!(infantry(forded, "road_column", from, (20.25, 10.25)), 3);
}

#[test]
fn ch16_4_1_woods_cap_a_move_at_4_inches() {
    // Ch16 4.1, RULINGS C24: light woods are `rough max 4`; a move that enters them goes at 4"
    // (the assault column's rough rate, 5", capped at 4, as is the line's 4"). Woods from
    // x = 20: move 1 stays in the open, 7.5" to (19.75, 10.25); then 4" a move: (26.25, 10.25),
    // 6.5" into the woods, takes moves 2 and 3 (turn 5); (28.25, 10.25), 8.5", moves 2-4 (turn 7).
    let woods = "light_woods \"Woods\" polygon (20, 0) (30, 0) (30, 36) (20, 36)";
    let from = (12.25, 10.25);
    assert_eq!(infantry(woods, "assault_column", from, (19.75, 10.25)), 1);
    assert_eq!(infantry(woods, "assault_column", from, (26.25, 10.25)), 5);
    assert_eq!(infantry(woods, "assault_column", from, (28.25, 10.25)), 7);
}

#[test]
fn ch16_4_2_a_fence_costs_the_higher_of_the_row_and_the_fence() {
    // Ch16 4.2, RULINGS C25 `higher`: crossing a rail fence costs an assault column the higher
    // of its row's 2" and the fence's own. From (2.25, 10.25), a fence at x = 7: (10.25, 10.25)
    // is 8" away, one move without the fence; with it, 8" + 2" > 8", so a second move: turn 3.
    let from = (2.25, 10.25);
    let fence = "rail_fence \"Fence\" line (7, 0) (7, 36)";
    assert_eq!(infantry("", "assault_column", from, (10.25, 10.25)), 1);
    assert_eq!(infantry(fence, "assault_column", from, (10.25, 10.25)), 3);
    // 6" beyond the start with the fence: 6 + 2 = 8", still one move.
    assert_eq!(infantry(fence, "assault_column", from, (8.25, 10.25)), 1);
}

#[test]
fn units_placed_later_move_only_after_their_arrival() {
    // A reinforcement placed on turn 5 moves on turns 7, 9, ...: 8" east on turn 7.
    let bf = field("");
    let grid = Grid::new(&bf, CELL).expect("a table");
    let rows = infantry_ways(&grid, &bf, &Rulings::default(), "assault_column");
    let turns = reach(&grid, &rows, &[(2.25, 10.25)], 5, &MOVES);
    assert_eq!(grid.earliest_near(&turns, (2.25, 10.25), 0.0), 5);
    assert_eq!(grid.earliest_near(&turns, (10.25, 10.25), 0.0), 7);
}

#[test]
fn contact_is_the_first_turn_both_reaches_meet() {
    // Two assault columns 40" apart on open ground, each 8" a move on the same turns: after k moves
    // they are 40 - 16k apart, within 0.5" after 3 moves (turn 5: 40 - 48 < 0).
    let bf = field("");
    let grid = Grid::new(&bf, CELL).expect("a table");
    let rows = infantry_ways(&grid, &bf, &Rulings::default(), "assault_column");
    let a = reach(&grid, &rows, &[(2.25, 10.25)], 0, &MOVES);
    let b = reach(&grid, &rows, &[(42.25, 10.25)], 0, &MOVES);
    assert_eq!(first_within(&grid, &a, &b, CELL), 5);
    // Within 14" (a rifled musket's best band): 40 - 16k <= 14 from k = 2, turn 3.
    assert_eq!(first_within(&grid, &a, &b, 14.0), 3);
}

#[test]
fn the_squared_distance_transform_is_exact_on_a_line() {
    let mut d = vec![0.0; 5];
    transform(&[1e20, 0.0, 1e20, 1e20, 0.0], &mut d);
    assert_eq!(d, vec![1.0, 0.0, 1.0, 1.0, 0.0]);
}

#[test]
fn ch16_3_1_a_move_off_the_grids_directions_is_not_made_longer() {
    // Ch16 3.1, RULINGS G4: 8" a move. From (30.25, 14.25) to within 3" of (25.25, 32.25):
    // hypot(5, 18) - 3 = 15.68" <= 16", two moves (turn 3), though the grid's nearest
    // directions make the path up to 2.75% longer (GRID_SLACK gives it back).
    let bf = field("");
    let grid = Grid::new(&bf, CELL).expect("a table");
    let rows = infantry_ways(&grid, &bf, &Rulings::default(), "assault_column");
    let turns = reach(&grid, &rows, &[(30.25, 14.25)], 0, &MOVES);
    assert_eq!(grid.earliest_near(&turns, (25.25, 32.25), 3.0), 3);
}

/// Ch16 2.3, Ch13 21.0: `--double-time` gives a line or column 3" more a move, after a change
/// too, but none off the road in deep mud. On firm open ground a line goes 9" (6 + 3). In deep
/// mud (infantry -2") a line goes 4" with no bonus; a column formed where it stands keeps half of
/// the faster allowance, 3" of 6", with no bonus either, then 6" a move: 4" on the first move,
/// 9" (3 + 6) on the second, 15" on the third.
#[test]
fn ch16_2_3_double_time_adds_3_inches_but_not_off_the_road_in_deep_mud() {
    let bf = field("");
    let grid = Grid::new(&bf, CELL).expect("a table");
    let mud = data().ground("mud").expect("the stdlib's deep mud");
    let from = (2.25, 10.25);
    let reach_in = |ground: Option<&GroundCondition>, to: f64| {
        let rows = Row::for_unit(
            &grid,
            &bf,
            data(),
            &Rulings::default(),
            ground,
            true,
            MoverKind::Infantry,
            Some("line"),
        );
        let turns = reach(&grid, &rows, &[from], 0, &MOVES);
        grid.earliest_near(&turns, (from.0 + to, from.1), 0.0)
    };
    assert_eq!(reach_in(None, 9.0), 1);
    assert_eq!(reach_in(None, 9.5), 3);
    assert_eq!(reach_in(Some(mud), 4.0), 1);
    assert_eq!(reach_in(Some(mud), 4.5), 3);
    assert_eq!(reach_in(Some(mud), 9.0), 3);
    assert_eq!(reach_in(Some(mud), 9.5), 5);
    assert_eq!(reach_in(Some(mud), 15.0), 5);
}
