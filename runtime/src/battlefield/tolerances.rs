//! dotc's own settings for measuring the table: tolerances and one default the rulebook leaves
//! open. None of them is a rule number (those are the stdlib's, read through `engine::Tables` or
//! the rule data); each says "dotc's own, not a rule" and why it is what it is. The modules that
//! use them re-export them where they were before (`contact::CONTACT_TOLERANCE`, ...).
//!
//! A test (`engine::tables::tests::no_rule_numbers_in_rust`) fails on a numeric `const` whose
//! doc comment cites the rulebook without that mark.

/// Stands this close (inches) are in contact (RULINGS G3). dotc's own, not a rule: bases pushed
/// together on a real table leave hairline gaps, and 0.05" is far below anything the rules
/// measure.
pub const CONTACT_TOLERANCE: f64 = 0.05;

/// Edge contact needs the stands to touch along more than this much edge (inches), so a corner
/// grazing a corner engages nobody (RULINGS G3). dotc's own, not a rule: a quarter of a stand's
/// frontage.
pub const EDGE_CONTACT_MIN: f64 = 0.25;

/// How far in front of its front edge (inches) a linear obstacle still covers a unit (Ch16 4.2).
/// dotc's own, not a rule: the rulebook says only "behind" a fence or wall; one inch, a stand's
/// width, keeps a regiment lined up a little back from the rails behind them.
pub const OBSTACLE_REACH: f64 = 1.0;

/// A path follows a road when every point of the colours' path is within this many inches of a
/// road's line (Ch16 3.1 road march). dotc's own, not a rule: half a stand, so the Color Stand
/// is still on a road drawn as a line.
pub const ROAD_TOLERANCE: f64 = 0.5;

/// A unit climbing out of ground that takes a full turn to leave (Ch16 4.1: the Sunken Road,
/// a scenario's railroad cut) may end at most this many inches clear of it: the move that leaves
/// is the whole move, and it takes the unit just out. dotc's own, not a rule: a stand's width.
pub const EXIT_CLEARANCE: f64 = 1.0;

/// A ford or bridge placed as a point serves a crossing of the water within this many inches of
/// it. dotc's own, not a rule: a stand's width.
pub const CROSSING_TOLERANCE: f64 = 1.0;

/// How far a unit may stand from where a fixed move (a retreat, a fall back, an about face) puts
/// it, inches. dotc's own, not a rule: a hairline, as for contact ([`CONTACT_TOLERANCE`]).
pub const POSITION_TOLERANCE: f64 = 0.05;

/// How far, in degrees, a facing may be off from the one a fixed move keeps. dotc's own, not a
/// rule: half a degree, what a hand-placed base is off by.
pub const FACING_TOLERANCE: f64 = 0.5;

/// How far a side's unit may stand from an objective and hold it, unless the objective says
/// (`within`): its Color Stand within 3". dotc's own, not a rule: the rulebook counts victory
/// points from objectives (the first step of chapter 14's post-battle sequence, "Objective
/// Verification") but never says what holding one means; dotc rules that a side holds an
/// objective when one of its formed units (on the table, its brigade not Broken, Ch16 8.2) has
/// its Color Stand (RULE-05-1.4) within this distance of it and no enemy unit on the table does.
/// Otherwise no one holds it. A scenario that reads it otherwise sets `within` on its objectives.
pub const HOLD_RADIUS: f64 = 3.0;
