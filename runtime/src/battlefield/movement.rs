//! Movement: how far a unit may go and what its move runs into. Ch16 2.2, 2.3, 3.1-3.3, 4.1,
//! 4.2, 7.1, 7.2, 7.4, 10.2, 10.4; Ch13 21.0, 22.0; RULE-05-4.4, RULE-07-3.1; RULINGS C6, C8,
//! C24, C25, C31, G8, G10, G17.
//!
//! [`check_move`] judges one [`Move`]: a unit (its movement row, formation, Disorder, brigade state
//! and command tier), the kind of move, its start [`Body`], the [`Pose`]s it passes through and
//! the one it ends in. The [`MoveReport`] lists the allowance and the distance used, each as
//! parts that cite their rule, and the findings: violations (the move is illegal) and effects
//! (what the move brings on: Disorder, a Discipline check, a halted charge, a passage of lines).
//! [`interruption_point`] finds where a charge pauses for the Closing Volley (Ch16 7.2).
//!
//! Every number comes from the rule data (movement rows, terrain, obstacles, formations, orders,
//! markers, brigade states, tiers, melee results), except the handful the stdlib does not state,
//! which are the named constants below, each citing its rule.
//!
//! Conventions:
//!
//! - **The row** is `RuleData::movement_for(arm, formation, state)` (Ch16 3.1); limbering and
//!   unlimbering use the limbered row, whose `limber` prices them. A formation with a `speed` of
//!   its own and no row (open order, Ch13 22.0) moves by the row of the formation it re-forms
//!   into (its first `change`), at its own `speed` and `rough_speed`.
//! - **The path** runs from the start pose through the waypoints to the end pose. Between two
//!   poses the unit moves as one rigid body: straight when the facing is the same, otherwise a
//!   wheel about the one point that carries the first pose onto the second (a wheel on a flank
//!   pivots on that flank's front corner; a turn with the colours standing still pivots on them).
//! - **The ground** is the distance the colours (the Color Stand's front centre, RULE-05-1.4)
//!   travel: the straight legs plus the arcs they describe in wheels.
//! - **Wheels** (Ch16 2.3): one wheel of up to the `wheel` order's `max_wheel` (45 degrees) is
//!   part of the free standard advance and costs only the ground its colours cover. The degrees
//!   of that first wheel beyond 45, and every later wheel, are paid at the outer flank: for
//!   those degrees the arc of the front corner that travels farther replaces the colours' arc,
//!   so the report adds the outer flank's extra. A flank wheel of 45 degrees by a 5" line: the
//!   colours travel 2.5 x pi/4 = 1.96", the outer flank 5 x pi/4 = 3.93". A formation with
//!   `free_pivot` (open order) never pays the extra. An **about face** (a half turn that keeps
//!   its ground, Ch16 3.3) costs the stdlib's `maneuver about_face` instead of any ground.
//! - **Terrain** (Ch16 4.1, RULINGS C24): the most restrictive terrain crossed sets the rate for
//!   the whole move; penalties of two kinds do not add up. An area counts when the ground the
//!   unit's footprint sweeps enters it by more than a touch, where it starts included (a unit
//!   leaving woods moves at the woods' rate). A line kind (stream, river) counts where the
//!   colours' path meets it, except at a ford or bridge placed within [`CROSSING_TOLERANCE`] of
//!   the meeting point: those are made for crossing and the water does not slow the unit there.
//!   In woods the rate is the lower of the row's Woods/Rough rate and the woods' cap (C24
//!   `lower`) or the row's rate alone (`formation_rate`). A formation that
//!   `ignores_terrain_slowdown` moves at its row's rate for the column, with no penalty or cap.
//! - **Roads** (Ch16 3.1): the row's Road March rate applies when the whole path of the colours
//!   stays within [`ROAD_TOLERANCE`] of roads; the table gives every row its own road figure, so
//!   no formation is required. Areas under the road are then ignored; streams are not.
//! - **Obstacles** (Ch16 4.2, RULINGS C25): crossed where the colours' path crosses the obstacle's
//!   line (running along it is not crossing); each crossing costs the higher of the row's and the
//!   obstacle's figure (`higher`) or the row's alone (`formation_rate`).
//! - **The allowance** of an ordinary move is the terrain rate, plus the `double_time` order's
//!   `move_bonus` (Ch16 2.3), plus the Disorder marker's `move` (RULE-05-4.4, RULINGS C6
//!   `slowed`; under `halted` a disordered unit may not advance at all: an advance, double time,
//!   wheel or charge has an allowance of 0, RULE-07-3.1), less the ground condition's penalty
//!   (Ch13 21.0), never below 0; then raised to the row's `minimum` (Ch16 3.1) for a unit in
//!   command (its tier can receive pips: within 24", RULINGS G8), unless the move meets
//!   impassable ground. A charge has the row's `charge` (Ch16 3.1, 7.1), plus each crossed
//!   terrain's `charge` penalty and the ground's; area rates do not slow a charge.
//! - **Fixed moves**: a retreat is exactly the melee result's `retreat` straight back with the
//!   facing kept (Ch16 7.4); a fall back at most the stdlib's `maneuver fall_back` straight back (Ch16 3.3); a
//!   consolidation at most the victor's `consolidate`, forward, turning at most 45 degrees
//!   (Ch16 7.4). Terrain rates, Disorder and ground do not change these distances; obstacle
//!   crossings still cost a fall back and a consolidation.
//! - **Costs taken from the move** (Ch16 3.2 formation changes, Ch16 3.1 and 10.4 limbering,
//!   Ch16 10.2 dismounting) come off the allowance, after the minimum move: `half` is half of
//!   it, `all` the whole of it, inches so many (never below 0). What is left is what the unit may
//!   still move ("may move remaining distance in new formation", Ch16 3.2). They are not part of
//!   the distance used, so a penalty that shrinks the move never makes the change cheaper.
//! - **Boundaries**: exactly the allowance is legal (the `<=` of RULINGS G4, compared at
//!   [`MEASURE_PRECISION`]); touching a wood's edge does not enter it; a friend touched but not
//!   entered is no passage of lines; a unit whose stands stay on the table edge has not left it.

use std::fmt;

use dotc_lang::library::{
    Arm, BrigadeState, Charge, Cost, Crossing, Formation, Marker, MoveColumn, MoveState, MovementRate,
    Obstacle, ObstacleCost as RowObstacleCost, OrderCost, RuleData, TerrainKind, TerrainMove,
};
use dotc_lang::verbs::ManeuverVerb;
use geo::line_intersection::{LineIntersection, line_intersection};
use geo::{
    ConvexHull, Coord, CoordsIter, Distance, Euclidean, Intersects, Line, LineString, MultiPolygon, Point,
    Polygon,
};

use super::Battlefield;
use super::arcs::in_front_arc;
use super::body::Body;
use super::range::{nearest_point, range};
use crate::geometry::{Frame, Layout, MEASURE_PRECISION, footprint, measured};
use crate::rulings::{
    BlockedRetreat, DisorderedMovement, ObstacleCost, PassageOfLines, RoadColumnChange, Rulings, WoodsSpeed,
};

/// The only arm that may Double-Time: "an infantry Line or Column" (Ch16 2.3); the order's
/// `formations` list names the formations.
pub const DOUBLE_TIME_ARM: Arm = Arm::Infantry;

pub use super::tolerances::{
    CROSSING_TOLERANCE, EXIT_CLEARANCE, FACING_TOLERANCE, POSITION_TOLERANCE, ROAD_TOLERANCE,
};

// Rule data entries this module reads, by id. The orders and maneuvers a log line names by its
// verb have the verb's word as their id, so they are read through the typed verb.
const DISORDER: &str = "disorder";
/// The `double_time` order (Ch16 2.3) bought by the `double_time` verb.
pub(crate) const DOUBLE_TIME: &str = ManeuverVerb::DoubleTime.word();
/// The `wheel` order (Ch16 2.3), whose `max_wheel` is the free wheel of a standard advance.
const WHEEL: &str = ManeuverVerb::Wheel.word();
const REGIMENTAL_ASSAULT: &str = "regimental_assault";
const DEFEATED: &str = "defeated";
const CAVALRY_DEFEATED: &str = "cavalry_defeated";
const VICTOR: &str = "victor";
/// Ch16 3.3 (`maneuver fall_back`, `about_face`) and Ch16 10.2 (`dismount`, `remount`).
const FALL_BACK: &str = ManeuverVerb::FallBack.word();
/// What a blocked retreat's finding cites: the retreat, the passage of lines it may make, and
/// dotc's ruling on it.
const BLOCKED_RETREAT_RULE: &str = "Ch16 7.4, Ch16 3.3, dotc D48";
/// A leg that turns this far (degrees) turns the unit to the rear: a too-long move says that an
/// about face first would cost less (Ch16 3.3). Only the hint's threshold: dotc's own, not a rule.
const REVERSAL_DEGREES: f64 = 135.0;
/// The rule data's brigade state whose `retreat` a Broken brigade's units make (RULE-07-2.4).
const BROKEN: &str = "broken";
const ABOUT_FACE: &str = ManeuverVerb::AboutFace.word();
const DISMOUNT: &str = ManeuverVerb::Dismount.word();
const REMOUNT: &str = ManeuverVerb::Remount.word();
/// The road column (Ch16 3.2), whose forming from a deployed formation dotc D47 prices.
pub(crate) const ROAD_COLUMN: &str = "road_column";

/// Boolean operations work on a fixed grid: overlaps smaller than this (square inches) are a
/// touch, not an entry.
const AREA_NOISE: f64 = 1e-6;
/// Turns smaller than this (degrees) are rounding, not a wheel.
const TURN_NOISE: f64 = 1e-6;
/// Wheels are followed in steps of at most this many degrees when the ground they sweep is
/// traced (a 5" line's outer corner then strays at most 0.01" outside the hulls).
const WHEEL_STEP: f64 = 5.0;
/// The colours' path is sampled this often (inches) to see whether it follows a road.
const ROAD_SAMPLE: f64 = 0.05;
/// No path segment is sampled more often than this, whatever its length.
const MAX_SAMPLES: f64 = 100_000.0;

/// Where a unit stands: its colours (the centre of the Color Stand's front edge, RULE-05-1.4)
/// and the compass bearing it faces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: (f64, f64),
    pub facing: f64,
}

impl Pose {
    pub fn new(position: (f64, f64), facing: f64) -> Pose {
        Pose { position, facing }
    }

    /// Where a body stands.
    pub fn of(body: &Body) -> Pose {
        Pose { position: body.position, facing: body.facing }
    }

    /// The unit's own axes at this pose.
    pub fn frame(&self) -> Frame {
        Frame::new(self.position, self.facing)
    }

    fn is_finite(&self) -> bool {
        self.position.0.is_finite() && self.position.1.is_finite() && self.facing.is_finite()
    }

    /// How far `other` is from this pose: inches between the positions, and degrees (0 to 180)
    /// between the facings. What a fixed move's check measures a logged end against.
    pub fn gap_to(&self, other: &Pose) -> (f64, f64) {
        let apart = (other.position.0 - self.position.0).hypot(other.position.1 - self.position.1);
        (apart, bearing_gap(self.facing, other.facing))
    }

    fn coord(&self) -> Coord<f64> {
        Coord { x: self.position.0, y: self.position.1 }
    }
}

/// The angle between two compass bearings, 0 to 180 degrees, whichever way round.
pub fn bearing_gap(a: f64, b: f64) -> f64 {
    let d = (b - a).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// The unit that moves, as the movement table and the movement rules tell units apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover<'a> {
    /// The arm of its movement row (Ch16 3.1).
    pub arm: Arm,
    /// Mounted or dismounted cavalry, limbered guns or guns by prolonge, a mounted leader.
    pub state: Option<MoveState>,
    /// Its formation's rule data id, as it starts the move.
    pub formation: Option<&'a str>,
    /// It carries a Disorder marker.
    pub disordered: bool,
    /// Its brigade's state (a rule data `brigade_state` id: `hesitant`, `broken`), if any.
    pub brigade_state: Option<&'a str>,
    /// Its command tier's `level` (Ch16 2.2); None for a leader or a unit whose command is not in
    /// question, which counts as in command.
    pub tier: Option<u32>,
    /// It is hauling off captured guns (Ch13 15.0): half speed on every move of its own.
    pub towing: bool,
}

impl<'a> Mover<'a> {
    fn of(arm: Arm, state: Option<MoveState>, formation: Option<&'a str>) -> Mover<'a> {
        Mover { arm, state, formation, disordered: false, brigade_state: None, tier: None, towing: false }
    }

    /// Infantry in a formation (`line`, `assault_column`, `road_column`, `open_order`).
    pub fn infantry(formation: &'a str) -> Mover<'a> {
        Mover::of(Arm::Infantry, None, Some(formation))
    }

    /// Mounted cavalry in `line` or march column (`road_column`).
    pub fn mounted_cavalry(formation: &'a str) -> Mover<'a> {
        Mover::of(Arm::Cavalry, Some(MoveState::Mounted), Some(formation))
    }

    /// Dismounted cavalry, in skirmish order (Ch16 10.2).
    pub fn dismounted_cavalry() -> Mover<'a> {
        Mover::of(Arm::Cavalry, Some(MoveState::Dismounted), Some("skirmish"))
    }

    /// A foot battery, limbered or moved by prolonge.
    pub fn battery(limbered: bool) -> Mover<'a> {
        Mover::of(Arm::Artillery, Some(gun_state(limbered)), None)
    }

    /// A horse battery, limbered or moved by hand (Ch16 10.4).
    pub fn horse_battery(limbered: bool) -> Mover<'a> {
        Mover::of(Arm::HorseArtillery, Some(gun_state(limbered)), None)
    }

    /// A mounted brigadier.
    pub fn brigadier() -> Mover<'a> {
        Mover::of(Arm::Leader, Some(MoveState::Mounted), None)
    }
}

fn gun_state(limbered: bool) -> MoveState {
    if limbered { MoveState::Limbered } else { MoveState::Prolonge }
}

/// What sort of move it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveKind<'a> {
    /// A standard advance at the formation's rate, with one free wheel (Ch16 2.3).
    Advance,
    /// The Double-Time Advance order: the order's `move_bonus` on top (Ch16 2.3).
    DoubleTime,
    /// A wheel, measured as an advance is (Ch16 2.3).
    Wheel,
    /// A charge at the row's charge speed (Ch16 3.1, 7.1), at `target` if it is given.
    Charge { target: Option<&'a Body> },
    /// The loser's retreat after a melee, straight back (Ch16 7.4); `cavalry_melee` when cavalry
    /// lost to cavalry (Ch16 10.1).
    Retreat { cavalry_melee: bool },
    /// Fall Back in Good Order (Ch16 3.3).
    FallBack,
    /// A Broken brigade's unit retreating the brigade state's `retreat` straight toward its own
    /// table edge, whose bearing (the way to the edge) this is, facing as it will (RULE-07-2.4,
    /// Ch16 8.2, RULINGS G14).
    BrokenRetreat { bearing: f64 },
    /// The victor's free consolidation move (Ch16 7.4).
    Consolidate,
    /// Changing to formation `to`, then moving on with what is left (Ch16 3.2).
    ChangeFormation { to: &'a str },
    /// Reversing facing (Ch16 3.3).
    AboutFace,
    /// A battery hitching its guns to its limbers (Ch16 3.1, 10.4).
    Limber,
    /// A battery unlimbering at the end of its move (Ch16 3.1, 10.4).
    Unlimber,
    /// Cavalry dismounting (Ch16 10.2).
    Dismount,
    /// Cavalry remounting (Ch16 10.2).
    Remount,
}

impl MoveKind<'_> {
    /// The moves whose allowance is a terrain rate.
    fn at_terrain_rate(self) -> bool {
        !matches!(
            self,
            MoveKind::Charge { .. }
                | MoveKind::Retreat { .. }
                | MoveKind::BrokenRetreat { .. }
                | MoveKind::FallBack
                | MoveKind::Consolidate
        )
    }

    /// The moves a disordered unit may not make under RULINGS C6 `halted` (RULE-07-3.1).
    fn advances(self) -> bool {
        matches!(self, MoveKind::Advance | MoveKind::DoubleTime | MoveKind::Wheel | MoveKind::Charge { .. })
    }

    /// The moves a unit makes of its own will: leaving the table is a violation, not an effect.
    fn voluntary(self) -> bool {
        !matches!(self, MoveKind::Retreat { .. } | MoveKind::BrokenRetreat { .. } | MoveKind::FallBack)
    }
}

/// The weather's ground condition (Ch13 21.0), which a move is judged on.
pub use crate::engine::weather::Ground;

/// One move to judge.
#[derive(Clone, Copy, Debug)]
pub struct Move<'a> {
    pub mover: Mover<'a>,
    pub kind: MoveKind<'a>,
    /// Where and how the unit stands before it moves.
    pub start: Body,
    /// Poses it passes through, in order.
    pub waypoints: &'a [Pose],
    /// Where it ends. Its stands keep their layout, except after a formation change, which lays
    /// them out as the new formation does.
    pub end: Pose,
    /// The weather's ground condition, if the weather module is on.
    pub ground: Option<Ground>,
    /// The other units of its side: moving through one is a passage of lines (Ch16 3.3).
    pub friends: &'a [Body],
}

impl<'a> Move<'a> {
    /// A move with no waypoints, on firm ground, with no friends about.
    pub fn new(mover: Mover<'a>, kind: MoveKind<'a>, start: Body, end: Pose) -> Move<'a> {
        Move { mover, kind, start, waypoints: &[], end, ground: None, friends: &[] }
    }
}

/// An amount of movement and where it comes from.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub what: String,
    /// Inches: a penalty is negative in an allowance.
    pub inches: f64,
    /// The RULE id, Ch16 section or RULINGS id.
    pub rule: String,
}

impl Part {
    fn new(what: impl Into<String>, inches: f64, rule: impl Into<String>) -> Part {
        Part { what: what.into(), inches, rule: rule.into() }
    }
}

impl fmt::Display for Part {
    /// `Infantry, line of battle, open ground 6.0", Ch16 3.1`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}\", {}", self.what, inches(self.inches), self.rule)
    }
}

/// An order a unit may be refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    DoubleTime,
    Charge,
}

/// What a move breaks or brings on.
#[derive(Clone, Debug, PartialEq)]
pub enum FindingKind {
    // ------------------------------------------------------------- violations
    /// The rule data has no movement row for the unit.
    NoMovementRow { arm: Arm, formation: Option<String>, state: Option<MoveState> },
    /// An entry the rule needs is missing from the rule data.
    MissingRuleData { entry: String },
    /// A position or facing is not a finite number.
    BadPose,
    /// The move uses more than it is allowed; `basis` names what set the allowance.
    /// `made_of`: what the distance used is made of when more than the ground ("" otherwise).
    /// `reversal`: the move turned the unit to the rear as a wheel, where an about face first
    /// (Ch16 3.3) costs less; the finding says so.
    TooFar { used: f64, allowed: f64, basis: String, made_of: String, reversal: bool },
    /// An order the unit may not take.
    Refused { action: Action, because: String },
    /// The charge's target is not in the charger's front arc (Ch16 7.1).
    TargetOutOfArc,
    /// The charge's target is farther than the charge reaches (Ch16 7.1).
    TargetOutOfReach { range: f64, reach: f64 },
    /// The move enters ground no unit may enter.
    Impassable { terrain: String, feature: Option<String> },
    /// The row cannot cross this obstacle at all.
    CannotCross { obstacle: String, feature: Option<String> },
    /// A voluntary move climbs out of ground that takes a full turn to leave (Ch16 4.1) and goes
    /// on beyond it: `beyond` inches clear, where [`EXIT_CLEARANCE`] is the most.
    ExitTakesTheTurn { terrain: String, feature: Option<String>, beyond: f64 },
    /// A voluntary move takes stands off the table.
    OffTable,
    /// The move ends on top of a friendly unit ([`Move::friends`] index).
    EndsOnFriend { friend: usize },
    /// The rule data prices no change between these formations.
    UnpricedChange { from: String, to: String },
    /// The row prices no limbering: not a battery.
    CannotLimber { row: String },
    /// A move that must go straight back strays sideways (`drift` inches) or turns (`turned`
    /// degrees).
    NotStraightBack { drift: f64, turned: f64 },
    /// A retreat of the wrong length.
    WrongDistance { moved: f64, required: f64 },
    /// A retreat a friend blocks that does not end where dotc D48's `setting` puts it,
    /// `expected`: it is `off` inches from there and turned `turned` degrees.
    BlockedRetreat { expected: (f64, f64), off: f64, turned: f64, setting: &'static str },
    /// A Broken brigade's retreat that does not go straight toward its table edge: it strays
    /// `drift` inches from the line to the edge.
    NotTowardItsEdge { drift: f64 },
    /// A consolidation that goes backward.
    NotForward,
    /// A consolidation that turns too far.
    OverPivot { degrees: f64, max: f64 },
    /// An about face that does not reverse the unit where it stands.
    NoReversal,
    /// Out of communication: only straight ahead or back (Ch16 2.2, RULINGS G8).
    Restricted,
    // ------------------------------------------------------------- effects
    /// The unit takes a Disorder marker.
    Disordered { cause: String },
    /// The unit takes a Discipline check, disordered if it fails.
    DisciplineCheck { obstacle: String, target: u32 },
    /// The charge stops at the water's edge with no melee (RULINGS G10).
    ChargeHalted { at: Pose, feature: String },
    /// The unit passes through a friend ([`Move::friends`] index): both test.
    PassageOfLines { friend: usize },
    /// A forced move takes the unit off the table.
    LeavesTable,
    /// The unit may not fire in Phase 3 this turn.
    CannotFire,
    /// Unlimbering costs staff pips.
    UnlimberPips { pips: u32 },
    /// The guns are stuck for good.
    Stuck,
}

impl FindingKind {
    pub fn is_violation(&self) -> bool {
        !matches!(
            self,
            FindingKind::Disordered { .. }
                | FindingKind::DisciplineCheck { .. }
                | FindingKind::ChargeHalted { .. }
                | FindingKind::PassageOfLines { .. }
                | FindingKind::LeavesTable
                | FindingKind::CannotFire
                | FindingKind::UnlimberPips { .. }
                | FindingKind::Stuck
        )
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingKind::NoMovementRow { arm, formation, state } => {
                write!(f, "no movement row for {}", arm.word())?;
                if let Some(state) = state {
                    write!(f, " {}", state.word())?;
                }
                match formation {
                    Some(formation) => write!(f, " in {formation}"),
                    None => Ok(()),
                }
            }
            FindingKind::MissingRuleData { entry } => write!(f, "the rule data has no `{entry}`"),
            FindingKind::BadPose => write!(f, "a position or facing is not a number"),
            FindingKind::TooFar { used, allowed, basis, made_of, reversal } => {
                write!(
                    f,
                    "moved {}\"{made_of} of an allowed {}\": {basis}",
                    inches(*used),
                    inches(*allowed)
                )?;
                if *reversal {
                    write!(
                        f,
                        "; it turned to the rear as a wheel: an `about_face` line before the move reverses it \
                         for the about face's price instead (Ch16 3.3)"
                    )?;
                }
                Ok(())
            }
            FindingKind::Refused { action, because } => {
                let action = match action {
                    Action::DoubleTime => "may not double-time",
                    Action::Charge => "may not charge",
                };
                write!(f, "{action}: {because}")
            }
            FindingKind::TargetOutOfArc => write!(f, "the target is not in the charger's front arc"),
            FindingKind::TargetOutOfReach { range, reach } => {
                write!(f, "the target is {}\" away, beyond the {}\" charge", inches(*range), inches(*reach))
            }
            FindingKind::Impassable { terrain, feature } => {
                write!(f, "enters impassable {terrain}")?;
                named(f, feature)
            }
            FindingKind::CannotCross { obstacle, feature } => {
                write!(f, "cannot cross {obstacle}")?;
                named(f, feature)
            }
            FindingKind::ExitTakesTheTurn { terrain, feature, beyond } => {
                write!(f, "climbing out of {terrain}")?;
                named(f, feature)?;
                write!(
                    f,
                    " takes the whole move: it may end at most {}\" clear of it, not {}\"",
                    inches(EXIT_CLEARANCE),
                    inches(*beyond)
                )
            }
            FindingKind::OffTable => write!(f, "leaves the table"),
            FindingKind::EndsOnFriend { friend } => write!(f, "ends on top of friendly unit {friend}"),
            FindingKind::UnpricedChange { from, to } => {
                write!(f, "the rule data prices no change from {from} to {to}")
            }
            FindingKind::CannotLimber { row } => write!(f, "the {row} row has no limbers"),
            FindingKind::NotStraightBack { drift, turned } => write!(
                f,
                "must move straight back keeping its facing: strays {}\" and turns {} degrees",
                inches(*drift),
                inches(*turned)
            ),
            FindingKind::WrongDistance { moved, required } => {
                write!(f, "retreated {}\" of the {}\" required", inches(*moved), inches(*required))
            }
            FindingKind::BlockedRetreat { expected, off, turned, setting } => write!(
                f,
                "a friendly unit blocks the retreat straight back; under `blocked_retreat = {setting}` it ends at ({:.2}, {:.2}) facing as it stood, not {}\" from there turned {} degrees",
                expected.0,
                expected.1,
                inches(*off),
                inches(*turned)
            ),
            FindingKind::NotTowardItsEdge { drift } => write!(
                f,
                "a Broken brigade's retreat goes straight toward its own table edge; this one strays {}\" from that line",
                inches(*drift)
            ),
            FindingKind::NotForward => write!(f, "a consolidation may not go backward"),
            FindingKind::OverPivot { degrees, max } => {
                write!(f, "turns {} degrees, more than {}", inches(*degrees), inches(*max))
            }
            FindingKind::NoReversal => write!(f, "does not reverse its facing where it stands"),
            FindingKind::Restricted => {
                write!(f, "out of communication: only straight ahead or falling back")
            }
            FindingKind::Disordered { cause } => write!(f, "takes a Disorder marker: {cause}"),
            FindingKind::DisciplineCheck { obstacle, target } => {
                write!(f, "crossing {obstacle} needs a {target}+ Discipline check, Disorder if failed")
            }
            FindingKind::ChargeHalted { at, feature } => write!(
                f,
                "the charge halts at the edge of {feature}, at ({}, {}), with no melee",
                inches(at.position.0),
                inches(at.position.1)
            ),
            FindingKind::PassageOfLines { friend } => write!(
                f,
                "passes through friendly unit {friend}: a passage of lines, both take a Discipline check"
            ),
            FindingKind::LeavesTable => write!(f, "leaves the table"),
            FindingKind::CannotFire => write!(f, "may not fire in Phase 3 this turn"),
            FindingKind::UnlimberPips { pips } => write!(f, "unlimbering costs {pips} staff pips"),
            FindingKind::Stuck => write!(f, "limbered guns moving off the road are stuck for good"),
        }
    }
}

fn named(f: &mut fmt::Formatter<'_>, feature: &Option<String>) -> fmt::Result {
    match feature {
        Some(name) => write!(f, " ({name})"),
        None => Ok(()),
    }
}

/// One finding and the rule it applies.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub kind: FindingKind,
    pub rule: String,
}

impl Finding {
    pub fn is_violation(&self) -> bool {
        self.kind.is_violation()
    }
}

impl fmt::Display for Finding {
    /// `moved 7.4" of an allowed 6.0": Infantry, line of battle, open ground, Ch16 3.1`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.kind, self.rule)
    }
}

/// The judgement of one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The movement row's id.
    pub row: Option<String>,
    /// Inches the unit may use, never negative.
    pub allowance: f64,
    /// What makes up the allowance, first the rate that set it.
    pub allowance_parts: Vec<Part>,
    /// Inches its colours travel.
    pub ground: f64,
    /// Inches the move uses: the ground and every cost.
    pub used: f64,
    pub used_parts: Vec<Part>,
    pub findings: Vec<Finding>,
}

impl MoveReport {
    fn new() -> MoveReport {
        MoveReport {
            row: None,
            allowance: 0.0,
            allowance_parts: Vec::new(),
            ground: 0.0,
            used: 0.0,
            used_parts: Vec::new(),
            findings: Vec::new(),
        }
    }

    /// No violation.
    pub fn is_legal(&self) -> bool {
        !self.findings.iter().any(Finding::is_violation)
    }

    pub fn violations(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.is_violation())
    }

    pub fn effects(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| !f.is_violation())
    }

    fn add(&mut self, kind: FindingKind, rule: impl Into<String>) {
        self.findings.push(Finding { kind, rule: rule.into() });
    }
}

/// Judge one move. Never panics: a missing row, missing rule data or a pose that is not a number
/// is a finding.
pub fn check_move(bf: &Battlefield, data: &RuleData, rulings: &Rulings, mv: &Move<'_>) -> MoveReport {
    let mut report = MoveReport::new();
    let formation = mv.mover.formation.and_then(|id| data.formation(id));
    let poses: Vec<Pose> =
        std::iter::once(Pose::of(&mv.start)).chain(mv.waypoints.iter().copied()).chain([mv.end]).collect();
    let layout_ok = mv.start.layout.width().is_finite() && mv.start.layout.gap >= 0.0;
    if !poses.iter().all(Pose::is_finite) || !layout_ok {
        report.add(FindingKind::BadPose, "Ch16 3.1");
        return report;
    }
    let Some(row) = movement_row(data, &mv.mover, mv.kind, formation) else {
        let (arm, state) = (mv.mover.arm, row_state(&mv.mover, mv.kind));
        let formation = mv.mover.formation.map(str::to_string);
        report.add(FindingKind::NoMovementRow { arm, formation, state }, "Ch16 3.1");
        return report;
    };
    report.row = Some(row.meta.id.clone());
    let command = match command(data, mv.mover.tier) {
        Ok(command) => command,
        Err(entry) => {
            report.add(FindingKind::MissingRuleData { entry }, "Ch16 2.2");
            Command::IN_COMMAND
        }
    };
    let disorder = match mv.mover.disordered.then(|| data.marker(DISORDER)) {
        Some(None) => {
            report.add(FindingKind::MissingRuleData { entry: DISORDER.into() }, "RULE-05-4.4");
            None
        }
        Some(marker) => marker,
        None => None,
    };
    let brigade = mv.mover.brigade_state.and_then(|id| data.brigade_state(id));
    let mut judge = Judge {
        bf,
        data,
        rulings,
        mv,
        formation,
        row,
        command,
        disorder,
        brigade,
        report,
        refused_bonus: None,
        sidestepped: Vec::new(),
    };

    // The path, cut short where a charge halts at water (Ch16 4.1, RULINGS G10).
    let end_layout = match mv.kind {
        MoveKind::ChangeFormation { to } => data.formation(to).map_or(mv.start.layout, |f| {
            Layout::new(
                mv.start.layout.stands,
                f.frontage_stands(),
                f.gap_inches(),
                mv.start.layout.stand_width,
            )
        }),
        _ => mv.start.layout,
    };
    let mut path = Path::new(&poses, mv.start.layout, end_layout);
    if matches!(mv.kind, MoveKind::Charge { .. })
        && let Some(halt) = charge_halt(bf, &path)
    {
        let rule = format!("{}, RULINGS G10", halt.source);
        judge.report.add(FindingKind::ChargeHalted { at: halt.pose, feature: halt.feature }, rule);
        path = Path::new(&path.poses_until(halt.s), mv.start.layout, end_layout);
    }
    let survey = survey(bf, &path, mv.friends);
    judge.allowance(&survey);
    let measure = judge.distance_used(&path, &survey);
    judge.check_kind(&path, &measure);
    judge.effects(&survey, &measure);
    judge.report
}

/// Everything one judgement reads, and the report it writes.
struct Judge<'j> {
    bf: &'j Battlefield,
    data: &'j RuleData,
    rulings: &'j Rulings,
    mv: &'j Move<'j>,
    formation: Option<&'j Formation>,
    row: MovementRate,
    command: Command,
    disorder: Option<&'j Marker>,
    brigade: Option<&'j BrigadeState>,
    report: MoveReport,
    /// The Double-Time bonus refused (Ch16 2.3): a move that needed only it is not also too far,
    /// the refusal being the one mistake.
    refused_bonus: Option<f64>,
    /// The friends a retreat steps aside from under dotc D48 `sidestep`: it does not pass
    /// through them, whatever line the log draws to its end.
    sidestepped: Vec<usize>,
}

impl Judge<'_> {
    fn add(&mut self, kind: FindingKind, rule: impl Into<String>) {
        self.report.add(kind, rule);
    }

    fn row_title(&self) -> &str {
        self.row.meta.title()
    }

    /// A fixed move's one part (a retreat, a fall back, a consolidation): the rule data's
    /// distance, or a finding that the rule data lacks `entry`.
    fn fixed(&mut self, part: Option<Part>, entry: String, rule: &str) -> Vec<Part> {
        match part {
            Some(part) => vec![part],
            None => {
                self.add(FindingKind::MissingRuleData { entry }, rule);
                Vec::new()
            }
        }
    }

    /// The allowance and its parts (see the module doc), and the impassable ground met.
    fn allowance(&mut self, survey: &Survey) {
        let mut impassable = Vec::new();
        let basis = terrain_basis(self.bf, &self.row, self.formation, self.rulings, survey, &mut impassable);
        let mut parts = match self.mv.kind {
            MoveKind::Charge { .. } => self.charge_allowance(survey),
            MoveKind::Retreat { cavalry_melee } => {
                let id = if cavalry_melee { CAVALRY_DEFEATED } else { DEFEATED };
                let part = self.data.melee_result(id).and_then(|r| {
                    let what = format!("{}: retreat straight back", r.meta.title());
                    r.retreat.map(|inches| Part::new(what, inches, source(&r.meta.source)))
                });
                self.fixed(part, format!("{id} retreat"), "Ch16 7.4")
            }
            MoveKind::BrokenRetreat { .. } => {
                let part = self.data.brigade_state(BROKEN).and_then(|b| {
                    let what = format!("{}: retreat toward its table edge", b.meta.title());
                    b.retreat.map(|inches| Part::new(what, inches, source(&b.meta.source)))
                });
                self.fixed(part, format!("brigade_state {BROKEN} retreat"), "RULE-07-2.4")
            }
            MoveKind::FallBack => {
                let part =
                    self.data.maneuver(FALL_BACK).and_then(|m| m.most()).map(|inches| {
                        Part::new("fall back in good order, straight back", inches, "Ch16 3.3")
                    });
                self.fixed(part, format!("{FALL_BACK} distance"), "Ch16 3.3")
            }
            MoveKind::Consolidate => {
                let part = self.data.melee_result(VICTOR).and_then(|r| {
                    let what = format!("{}: consolidation", r.meta.title());
                    r.consolidate.map(|inches| Part::new(what, inches, source(&r.meta.source)))
                });
                self.fixed(part, format!("{VICTOR} consolidate"), "Ch16 7.4")
            }
            _ => self.rate_allowance(basis, survey.on_road),
        };
        let mut allowance = sum(&parts).max(0.0);
        let halted = self.rulings.disordered_movement == DisorderedMovement::Halted;
        if self.disorder.is_some() && halted && self.mv.kind.advances() {
            parts.push(Part::new("Disorder: no advance at all", -allowance, "RULE-07-3.1, RULINGS C6"));
            allowance = 0.0;
        } else if self.mv.kind.at_terrain_rate()
            && impassable.is_empty()
            && self.command.in_command
            && let Some(minimum) = self.row.minimum
            && allowance < minimum
        {
            parts.push(Part::new(
                "minimum guaranteed move for a formed unit in command",
                minimum - allowance,
                format!("{}, RULINGS G8", row_source(&self.row)),
            ));
            allowance = minimum;
        }
        if self.mv.mover.towing && self.mv.kind.voluntary() && allowance > 0.0 {
            // Ch13 15.0: a regiment dragging captured guns moves at half speed.
            parts.push(Part::new("hauling off captured guns: half speed", -allowance / 2.0, "Ch13 15.0"));
            allowance /= 2.0;
        }
        if let Some(part) = self.cost_taken(allowance) {
            allowance = (allowance + part.inches).max(0.0);
            parts.push(part);
        }
        self.report.allowance = allowance;
        self.report.allowance_parts = parts;
        for (kind, rule) in impassable {
            self.add(kind, rule);
        }
    }

    /// The terrain rate, double time, Disorder and the ground (Ch16 3.1, 2.3, RULE-05-4.4,
    /// RULINGS C6, Ch13 21.0).
    fn rate_allowance(&mut self, basis: Basis, on_road: bool) -> Vec<Part> {
        let title = format!("{}, {}", self.row_title(), basis.terrain);
        let mut parts = vec![Part::new(title, basis.rate, basis.rule)];
        if self.mv.kind == MoveKind::DoubleTime
            && let Some(bonus) = self.double_time(on_road)
        {
            parts.push(bonus);
        }
        if let Some(marker) = self.disorder
            && marker.move_penalty != 0.0
            && self.rulings.disordered_movement == DisorderedMovement::Slowed
        {
            let rule = format!("{}, RULINGS C6", source(&marker.meta.source));
            parts.push(Part::new("Disorder", marker.move_penalty, rule));
        }
        parts.extend(self.ground_part());
        parts
    }

    /// The weather's ground condition: its `ground` entry's penalty for the mover's arm.
    fn ground_part(&mut self) -> Option<Part> {
        let ground = self.mv.ground?;
        let Some(entry) = self.data.ground(ground.id()) else {
            self.add(FindingKind::MissingRuleData { entry: format!("ground {}", ground.id()) }, "Ch13 21.0");
            return None;
        };
        let penalty = entry.penalty(self.mv.mover.arm);
        (penalty > 0.0).then(|| Part::new(ground.word(), -penalty, "Ch13 21.0"))
    }

    /// The cost of a set move (`maneuver <id>`), or a finding that the rule data lacks it.
    fn maneuver_cost(&mut self, id: &str, rule: &str) -> Option<Cost> {
        let cost = self.data.maneuver(id).and_then(|m| m.cost);
        if cost.is_none() {
            self.add(FindingKind::MissingRuleData { entry: format!("{id} cost") }, rule);
        }
        cost
    }

    /// The charge distance and what forbids the charge (Ch16 3.1, 7.1, 4.1, 8.2, 2.2, Ch13 21.0).
    fn charge_allowance(&mut self, survey: &Survey) -> Vec<Part> {
        let mut parts = Vec::new();
        let mut because = Vec::new();
        match self.row.charge {
            Charge::Inches(reach) => {
                parts.push(Part::new(format!("{}, charge", self.row_title()), reach, "Ch16 3.1, 7.1"))
            }
            Charge::Prohibited => because
                .push((format!("the {} row prohibits charges", self.row_title()), row_source(&self.row))),
            Charge::NotApplicable => {
                because.push((format!("the {} row has no charge", self.row_title()), row_source(&self.row)))
            }
        }
        for kind in survey.terrain_crossed(self.bf) {
            if kind.charge_penalty != 0.0 {
                let what = format!("{}, charge", kind.meta.title());
                parts.push(Part::new(what, kind.charge_penalty, source(&kind.meta.source)));
            }
        }
        parts.extend(self.ground_part());
        if let Some(formation) = self.formation.filter(|f| f.no_assault) {
            because
                .push((format!("{} cannot assault", formation.meta.title()), source(&formation.meta.source)));
        }
        if let Some(marker) = self.disorder.filter(|m| m.no_assault) {
            because.push(("Disorder".to_string(), format!("{}, Ch16 7.1", source(&marker.meta.source))));
        }
        if let Some(state) = self.brigade.filter(|b| b.no_assault) {
            because.push((format!("the brigade is {}", state.meta.title()), source(&state.meta.source)));
        }
        if !self.command.pips {
            because.push(("out of communication, no pips reach it".into(), self.command.source.clone()));
        }
        if self.mv.ground == Some(Ground::Mud) && self.mv.mover.arm == Arm::Infantry && !survey.on_road {
            because.push(("deep mud: no double-quick off the road".into(), "Ch13 21.0, Ch16 2.3".into()));
        }
        for (because, rule) in because {
            self.add(FindingKind::Refused { action: Action::Charge, because }, rule);
        }
        if let MoveKind::Charge { target: Some(target) } = self.mv.kind {
            if !in_front_arc(&self.mv.start, target) {
                self.add(FindingKind::TargetOutOfArc, "Ch16 7.1, RULINGS G13");
            }
            let reach = sum(&parts).max(0.0);
            let distance = range(&self.mv.start, target);
            if matches!(self.row.charge, Charge::Inches(_)) && distance > measured(reach) {
                self.add(FindingKind::TargetOutOfReach { range: distance, reach }, "Ch16 7.1, RULINGS G4");
            }
        }
        parts
    }

    /// The Double-Time bonus, or the reasons it is refused (Ch16 2.3, 8.2, RULE-05-4.4, RULINGS
    /// C6, G8, Ch13 21.0).
    fn double_time(&mut self, on_road: bool) -> Option<Part> {
        let Some(order) = self.data.order(DOUBLE_TIME) else {
            self.add(FindingKind::MissingRuleData { entry: DOUBLE_TIME.into() }, "Ch16 2.3");
            return None;
        };
        let Some(bonus) = order.move_bonus else {
            self.add(FindingKind::MissingRuleData { entry: format!("{DOUBLE_TIME} move_bonus") }, "Ch16 2.3");
            return None;
        };
        let order_source = source(&order.meta.source);
        let mover = &self.mv.mover;
        let mut because = Vec::new();
        if mover.arm != DOUBLE_TIME_ARM {
            because.push((format!("only {} may", DOUBLE_TIME_ARM.word()), order_source.clone()));
        }
        if !mover.formation.is_some_and(|f| order.formations.iter().any(|o| o == f)) {
            because.push((format!("not in {}", order.formations.join(", ")), order_source.clone()));
        }
        if let Some(marker) = self.disorder.filter(|m| m.no_double_time) {
            because.push(("Disorder".into(), format!("{}, RULINGS C6", source(&marker.meta.source))));
        }
        if let Some(state) = self.brigade.filter(|b| b.no_double_time) {
            because.push((format!("the brigade is {}", state.meta.title()), source(&state.meta.source)));
        }
        if !self.command.pips {
            because.push(("out of communication, no pips reach it".into(), self.command.source.clone()));
        }
        if self.mv.ground == Some(Ground::Mud) && mover.arm == Arm::Infantry && !on_road {
            because.push(("deep mud: no double-quick off the road".into(), "Ch13 21.0".into()));
        }
        if because.is_empty() {
            return Some(Part::new("double-time", bonus, order_source));
        }
        for (because, rule) in because {
            self.add(FindingKind::Refused { action: Action::DoubleTime, because }, rule);
        }
        self.refused_bonus = Some(bonus);
        None
    }

    /// What a formation change, limbering or dismounting takes out of the move (Ch16 3.2, 3.1,
    /// 10.4, 10.2): half of it, all of it, or so many inches.
    fn cost_taken(&mut self, allowance: f64) -> Option<Part> {
        let taken = |cost: Cost| match cost {
            Cost::Half => allowance / 2.0,
            Cost::All => allowance,
            Cost::Inches(inches) => inches.min(allowance),
        };
        let (what, cost, rule) = match self.mv.kind {
            MoveKind::ChangeFormation { to } => {
                let priced = self.formation.and_then(|f| f.change_cost(to));
                // dotc D47: forming road column from a deployed formation, which Ch16 3.2 does
                // not price; the rule data's price (the stdlib's: the whole move) by default.
                let into_road_column = to == ROAD_COLUMN && self.mv.mover.formation != Some(ROAD_COLUMN);
                let priced = match self.rulings.road_column_change {
                    RoadColumnChange::HalfMove if into_road_column => priced.map(|_| Cost::Half),
                    RoadColumnChange::Unpriced if into_road_column => None,
                    _ => priced,
                };
                let Some(cost) = priced else {
                    let from = self.mv.mover.formation.unwrap_or("no formation").to_string();
                    let rule = if into_road_column { "Ch16 3.2, dotc D47" } else { "Ch16 3.2" };
                    self.add(FindingKind::UnpricedChange { from, to: to.into() }, rule);
                    return None;
                };
                let title = self.data.formation(to).map_or(to, |f| f.meta.title());
                let what = format!("change from {} to {title}", title_of(self.formation));
                let mut rule = self.formation.map_or_else(|| "Ch16 3.2".into(), |f| source(&f.meta.source));
                if into_road_column && !rule.contains("dotc D47") {
                    rule.push_str(", dotc D47");
                }
                (what, cost, rule)
            }
            MoveKind::Limber | MoveKind::Unlimber => {
                let Some(cost) = self.row.limber else {
                    self.add(FindingKind::CannotLimber { row: self.row_title().into() }, "Ch16 3.1");
                    return None;
                };
                let verb = if self.mv.kind == MoveKind::Limber {
                    ManeuverVerb::Limber
                } else {
                    ManeuverVerb::Unlimber
                };
                (verb.word().to_string(), cost, row_source(&self.row))
            }
            MoveKind::Dismount => {
                (DISMOUNT.to_string(), self.maneuver_cost(DISMOUNT, "Ch16 10.2")?, "Ch16 10.2".to_string())
            }
            MoveKind::Remount => {
                (REMOUNT.to_string(), self.maneuver_cost(REMOUNT, "Ch16 10.2")?, "Ch16 10.2".to_string())
            }
            _ => return None,
        };
        Some(Part::new(format!("{what}: {}", cost_word(cost)), -taken(cost), rule))
    }

    /// The ground, the wheels beyond the free one, about faces and obstacle crossings.
    fn distance_used(&mut self, path: &Path, survey: &Survey) -> Measure {
        let free_wheel = match self.data.order(WHEEL).and_then(|o| o.max_wheel) {
            Some(degrees) => degrees as f64,
            None => {
                self.add(FindingKind::MissingRuleData { entry: format!("{WHEEL} max_wheel") }, "Ch16 2.3");
                0.0
            }
        };
        let measure = path.measure(free_wheel, self.formation.is_some_and(|f| f.free_pivot));
        let mut parts = Vec::new();
        if measure.ground > 0.0 {
            parts.push(Part::new("ground covered by the colours", measure.ground, "Ch16 3.1, RULE-05-1.4"));
        }
        if measure.wheel_extra > 0.0 {
            let what = format!(
                "{} degrees of wheel beyond the one free {}-degree wheel: the outer flank's extra",
                inches(measure.charged_degrees),
                inches(free_wheel)
            );
            parts.push(Part::new(what, measure.wheel_extra, "Ch16 2.3"));
        }
        if measure.about_faces > 0 {
            let cost = match self.maneuver_cost(ABOUT_FACE, "Ch16 3.3") {
                Some(Cost::Inches(inches)) => inches,
                Some(Cost::Half) => self.row.open / 2.0,
                Some(Cost::All) => self.row.open,
                None => 0.0,
            };
            for _ in 0..measure.about_faces {
                parts.push(Part::new("about face", cost, "Ch16 3.3"));
            }
        }
        let rule = match self.rulings.obstacle_cost {
            ObstacleCost::Higher => "Ch16 3.1, 4.2, RULINGS C25",
            ObstacleCost::FormationRate => "Ch16 3.1, RULINGS C25",
        };
        for &index in &survey.obstacles {
            let line = &self.bf.obstacles[index];
            match obstacle_cost(&line.obstacle, &self.row, self.rulings) {
                Some(cost) => {
                    parts.push(Part::new(format!("crossing {}", line.obstacle.meta.title()), cost, rule))
                }
                None => {
                    let obstacle = line.obstacle.meta.title().to_string();
                    self.add(
                        FindingKind::CannotCross { obstacle, feature: line.name.clone() },
                        row_source(&self.row),
                    );
                }
            }
        }
        self.report.ground = measure.ground;
        self.report.used = sum(&parts);
        self.report.used_parts = parts;
        measure
    }

    /// Too far, and what each kind of move demands of its path.
    fn check_kind(&mut self, path: &Path, measure: &Measure) {
        let report = &self.report;
        if let MoveKind::BrokenRetreat { bearing } = self.mv.kind {
            // The unit goes the allowance straight toward the edge; the facing is free. It is
            // measured at the middle of its stands, not at its colours: the colours stand at the
            // front edge, which a unit turning about carries from one side of its stands to the
            // other, so a retreat measured there would come up a stand's depth short turning
            // about and as far over turning to face the enemy (issue 19, McPherson's Ridge).
            let required = report.allowance;
            let known = !report.allowance_parts.is_empty();
            let half_depth = self.mv.start.layout.depth() / 2.0;
            let middle = |pose: Pose| pose.frame().to_table(0.0, -half_depth);
            let (start, end) = (middle(Pose::of(&self.mv.start)), middle(self.mv.end));
            let (across, along) = crate::geometry::Frame::new((start.x, start.y), bearing).to_local(end);
            // What the narrative says the unit moved: the distance it went, not a wheel's arc.
            self.report.used = measured(along.max(0.0));
            self.report.used_parts =
                vec![Part::new("toward its table edge", self.report.used, "RULE-07-2.4")];
            let drift = across.abs();
            if drift > POSITION_TOLERANCE {
                self.add(FindingKind::NotTowardItsEdge { drift: measured(drift) }, "RULE-07-2.4, Ch16 8.2");
            }
            if known && (along - required).abs() > POSITION_TOLERANCE {
                let moved = measured(along.max(0.0));
                self.add(
                    FindingKind::WrongDistance { moved, required },
                    "RULE-07-2.4, Ch16 8.2, RULINGS G14",
                );
            }
        } else if let MoveKind::Retreat { .. } = self.mv.kind {
            let required = report.allowance;
            let known = !report.allowance_parts.is_empty();
            let setting = self.rulings.blocked_retreat;
            let blocked = if known {
                blocked_retreat_ends(&self.mv.start, required, self.mv.friends, setting)
            } else {
                BlockedEnd::default()
            };
            if blocked.ends.is_empty() {
                straight_back(path, &mut self.report, "Ch16 7.4");
                let back = -self.mv.start.frame().to_local(self.mv.end.coord()).1;
                if known && (back - required).abs() > POSITION_TOLERANCE {
                    self.add(FindingKind::WrongDistance { moved: back, required }, "Ch16 7.4");
                }
            } else {
                // dotc D48: a friend takes the spot (or, stopping short, the way); the ruling
                // says where the unit ends instead, its facing kept.
                if setting == BlockedRetreat::Sidestep {
                    self.sidestepped = blocked.blocking;
                } else {
                    // Straight back all the same, only farther or shorter (Ch16 7.4).
                    straight_back(path, &mut self.report, "Ch16 7.4, dotc D48");
                }
                self.blocked_retreat(&blocked.ends, setting);
            }
        } else if measured(report.used) > measured(report.allowance)
            && self
                .refused_bonus
                .is_none_or(|bonus| measured(report.used) > measured(report.allowance + bonus))
        {
            let basis: Vec<&str> = report.allowance_parts.iter().map(|p| p.what.as_str()).collect();
            // What the distance is made of, when more than the ground: a wheel's extra, an
            // about face, an obstacle's crossing (Ch16 2.3, 3.3, 4.2, RULINGS C25), so a player
            // can see why the move is too long.
            let made_of = if report.used_parts.len() > 1 {
                let parts: Vec<String> =
                    report.used_parts.iter().map(|p| format!("{}\" {}", inches(p.inches), p.what)).collect();
                format!(" ({})", parts.join(" + "))
            } else {
                String::new()
            };
            let mut rules: Vec<&str> = Vec::new();
            let used_rules = report.used_parts.iter().skip(1).flat_map(|p| p.rule.split(", "));
            for rule in report.allowance_parts.iter().flat_map(|p| p.rule.split(", ")).chain(used_rules) {
                if !rules.contains(&rule) {
                    rules.push(rule);
                }
            }
            // A wheel of 135 degrees or more that cost extra is a turn to the rear (Ch16 3.3).
            let reversal = matches!(self.mv.kind, MoveKind::Advance | MoveKind::DoubleTime | MoveKind::Wheel)
                && measure.wheel_extra > 0.0
                && path.legs.iter().any(|leg| leg.turn.abs() >= REVERSAL_DEGREES);
            let kind = FindingKind::TooFar {
                used: report.used,
                allowed: report.allowance,
                basis: basis.join(", "),
                made_of,
                reversal,
            };
            if reversal && !rules.contains(&"Ch16 3.3") {
                rules.push("Ch16 3.3");
            }
            let rules = rules.join(", ");
            self.add(kind, rules);
        }
        match self.mv.kind {
            MoveKind::FallBack => straight_back(path, &mut self.report, "Ch16 3.3"),
            MoveKind::Consolidate => {
                let backward = path
                    .legs
                    .iter()
                    .any(|leg| leg.from.frame().to_local(leg.to.coord()).1 < -POSITION_TOLERANCE);
                if backward {
                    self.add(FindingKind::NotForward, "Ch16 7.4");
                }
                let turned: f64 = path.legs.iter().map(|leg| leg.turn.abs()).sum();
                let max = self.data.order(WHEEL).and_then(|o| o.max_wheel).unwrap_or(0) as f64;
                if turned > max + FACING_TOLERANCE {
                    self.add(FindingKind::OverPivot { degrees: turned, max }, "Ch16 7.4");
                }
            }
            MoveKind::AboutFace if measure.about_faces == 0 => self.add(FindingKind::NoReversal, "Ch16 3.3"),
            _ => {}
        }
        if self.command.restricted {
            let straight_ahead = path.legs.iter().all(|leg| {
                let (across, ahead) = leg.from.frame().to_local(leg.to.coord());
                leg.turn.abs() <= FACING_TOLERANCE
                    && across.abs() <= POSITION_TOLERANCE
                    && ahead >= -POSITION_TOLERANCE
            });
            let restricted = match self.mv.kind {
                MoveKind::Advance => !straight_ahead,
                MoveKind::Wheel
                | MoveKind::ChangeFormation { .. }
                | MoveKind::AboutFace
                | MoveKind::Limber
                | MoveKind::Unlimber
                | MoveKind::Dismount
                | MoveKind::Remount => true,
                _ => false,
            };
            if restricted {
                let rule = self.command.source.clone();
                self.add(FindingKind::Restricted, rule);
            }
        }
    }

    /// dotc D48: a retreat a friend blocks must end where the ruling puts it (the nearest of
    /// `ends`, which `blocked_retreat_ends` gave), facing as it started (Ch16 7.4).
    fn blocked_retreat(&mut self, ends: &[Pose], setting: BlockedRetreat) {
        let end = self.mv.end;
        let distance = |p: &Pose| (p.position.0 - end.position.0).hypot(p.position.1 - end.position.1);
        let Some(expected) = ends.iter().min_by(|a, b| distance(a).total_cmp(&distance(b))) else { return };
        // What the ruling adds to or takes from the 6" straight back, so the narrative's
        // allowance is the distance the unit goes.
        let back = -self.mv.start.frame().to_local(expected.coord()).1;
        let change = back - self.report.allowance;
        if change.abs() > POSITION_TOLERANCE {
            let what = match setting {
                BlockedRetreat::StopShort => "stopped short by a friend in the way",
                _ => "on through a friend to the first clear ground beyond",
            };
            self.report.allowance_parts.push(Part::new(what, change, BLOCKED_RETREAT_RULE));
            self.report.allowance = back.max(0.0);
        }
        let off = distance(expected);
        let turned = Leg::new(Pose::of(&self.mv.start), end).turn.abs();
        if off > POSITION_TOLERANCE || turned > FACING_TOLERANCE {
            let kind = FindingKind::BlockedRetreat {
                expected: expected.position,
                off: measured(off),
                turned: measured(turned),
                setting: crate::rulings::RulingSwitch::value(setting),
            };
            self.add(kind, BLOCKED_RETREAT_RULE);
        }
    }

    /// What the ground crossed does to the unit, and where it ends.
    fn effects(&mut self, survey: &Survey, measure: &Measure) {
        let (bf, mv) = (self.bf, self.mv);
        // Ch16 4.1: climbing out of a sunken road (or a scenario's cut) is the whole move. A
        // leader rides out freely; a retreat or fall back is a fixed move (dotc D46); a
        // consolidation never goes farther than its few inches.
        let climbs = mv.mover.arm != Arm::Leader
            && !matches!(
                mv.kind,
                MoveKind::Retreat { .. }
                    | MoveKind::BrokenRetreat { .. }
                    | MoveKind::FallBack
                    | MoveKind::Consolidate
            );
        for &(index, beyond) in survey.exits.iter().filter(|_| climbs) {
            if measured(beyond) > EXIT_CLEARANCE {
                let area = &bf.areas[index];
                let kind = FindingKind::ExitTakesTheTurn {
                    terrain: area.terrain.meta.title().to_string(),
                    feature: area.name.clone(),
                    beyond,
                };
                self.add(kind, source(&area.terrain.meta.source));
            }
        }
        let formed =
            mv.mover.arm != Arm::Leader && !self.formation.is_some_and(|f| f.ignores_terrain_disorder);
        for &(index, entered) in &survey.areas {
            let terrain = &bf.areas[index].terrain;
            if entered && formed && terrain.formed_disorder {
                let cause = format!("a formed unit entering {}", terrain.meta.title());
                self.add(
                    FindingKind::Disordered { cause },
                    format!("{}, RULINGS G17", source(&terrain.meta.source)),
                );
            }
        }
        for &index in &survey.obstacles {
            let obstacle = &bf.obstacles[index].obstacle;
            if formed && obstacle.formed_disorder {
                let cause = format!("a formed unit crossing {}", obstacle.meta.title());
                self.add(FindingKind::Disordered { cause }, source(&obstacle.meta.source));
            }
            if let Crossing::Inches { check: Some(target), .. } = obstacle.crossing {
                let kind = FindingKind::DisciplineCheck { obstacle: obstacle.meta.title().into(), target };
                self.add(kind, source(&obstacle.meta.source));
            }
        }
        let sidestepped = std::mem::take(&mut self.sidestepped);
        for &friend in survey.friends_passed.iter().filter(|f| !sidestepped.contains(f)) {
            if survey.friends_at_end.contains(&friend) {
                self.add(FindingKind::EndsOnFriend { friend }, "Ch16 3.3");
            } else {
                let rule = match self.rulings.passage_of_lines {
                    PassageOfLines::ByGrade => "Ch16 3.3, RULE-07-1.4, RULINGS C8",
                    PassageOfLines::FourUp => "Ch16 3.3, RULINGS C8",
                };
                self.add(FindingKind::PassageOfLines { friend }, rule);
            }
        }
        if survey.off_table {
            if mv.kind.voluntary() {
                self.add(FindingKind::OffTable, "Ch16 3.1");
            } else {
                self.add(FindingKind::LeavesTable, "RULINGS G5");
            }
        }
        if measure.about_faces > 0 {
            self.add(FindingKind::CannotFire, "Ch16 3.3");
        }
        if mv.kind == MoveKind::Unlimber {
            if !self.row.unlimber_and_fire {
                let rule = format!("{}, Ch8 2.0, RULINGS C31", row_source(&self.row));
                self.add(FindingKind::CannotFire, rule);
            }
            // Ch13 21.0: the ground's `unlimber_pips` (soft ground); deep mud keeps the guns
            // silent the turn they unlimber.
            if let Some(pips) = mv.ground.and_then(|g| self.data.ground(g.id())).and_then(|g| g.unlimber_pips)
            {
                self.add(FindingKind::UnlimberPips { pips }, "Ch13 21.0");
            }
            if mv.ground == Some(Ground::Mud) && self.row.unlimber_and_fire {
                self.add(FindingKind::CannotFire, "Ch13 21.0");
            }
        }
        let guns = matches!(mv.mover.arm, Arm::Artillery | Arm::HorseArtillery);
        let limbered = guns && self.row.state == Some(MoveState::Limbered);
        if mv.ground == Some(Ground::Mud) && limbered && measure.ground > 0.0 && !survey.on_road {
            self.add(FindingKind::Stuck, "Ch13 21.0");
        }
    }
}

/// Where along its charge a charger is first `line` inches from its target, measured as range
/// is (RULINGS G4: from the charger's colours to the nearest point of the target's stands). The
/// charge runs straight from the charger's colours toward that nearest point, keeping its
/// facing; along that line the distance to the target falls inch for inch, so from `d` inches
/// away the point is `d - line` inches along (from 9", the 4" line of the `regimental_assault`
/// order is 5" along). A charger already within `line` is there where it starts (RULINGS G10:
/// it takes the Closing Volley before moving). None when the charge halts or meets impassable
/// ground before reaching the line (a stream's bank, RULINGS G10), or `line` is not a distance.
///
/// With the order's `stall` (2") it is where a charger that fails its check stops (Ch16 7.2,
/// RULINGS G10).
pub fn interruption_point(bf: &Battlefield, charger_start: &Body, target: &Body, line: f64) -> Option<Pose> {
    if !line.is_finite() || line < 0.0 {
        return None;
    }
    let start = Pose::of(charger_start);
    if !start.is_finite() {
        return None;
    }
    let distance = range(charger_start, target);
    let along = measured(distance - line);
    if along <= 0.0 {
        return Some(start);
    }
    let from = charger_start.colours();
    let to = nearest_point(from, target);
    let (dx, dy) = ((to.x() - from.x()) / distance, (to.y() - from.y()) / distance);
    let point = Pose::new((from.x() + dx * along, from.y() + dy * along), start.facing);
    let path = straight_charge(charger_start, target);
    if charge_halt(bf, &path).is_some_and(|halt| halt.s < along - MEASURE_PRECISION) {
        return None;
    }
    let to_point = Path::new(&[start, point], charger_start.layout, charger_start.layout);
    let survey = survey(bf, &to_point, &[]);
    let blocked = survey.areas.iter().any(|&(i, _)| impassable_area(&bf.areas[i]))
        || survey.lines.iter().any(|m| m.crossing.is_none() && impassable_line(&bf.lines[m.line]));
    if blocked { None } else { Some(point) }
}

/// Water that stops a charge short of its target (Ch16 4.1 `halts_charges`, RULINGS G10): the
/// charge runs straight from the charger toward the nearest point of the target, as
/// [`interruption_point`] runs it, and halts where the charger's stands first touch a stream away
/// from a bridge or ford, with no melee. The stream's name and the rule that halts it, or None
/// when the way to contact is clear (water met only where the charger touches the target does
/// not stop it).
pub fn charge_halted_short(
    bf: &Battlefield,
    charger_start: &Body,
    target: &Body,
) -> Option<(String, String)> {
    let start = Pose::of(charger_start);
    if !start.is_finite() || !target.position.0.is_finite() || !target.position.1.is_finite() {
        return None;
    }
    let distance = range(charger_start, target);
    let halt = charge_halt(bf, &straight_charge(charger_start, target))?;
    (halt.s < measured(distance) - MEASURE_PRECISION)
        .then(|| (halt.feature, format!("{}, RULINGS G10", halt.source)))
}

/// The straight run of a charge: from where the charger stands to the nearest point of its
/// target, keeping its facing.
fn straight_charge(charger_start: &Body, target: &Body) -> Path {
    let start = Pose::of(charger_start);
    let to = nearest_point(charger_start.colours(), target);
    let contact = Pose::new((to.x(), to.y()), start.facing);
    Path::new(&[start, contact], charger_start.layout, charger_start.layout)
}

/// The two distances of an assault (Ch16 7.2): where the charge pauses for the Closing Volley
/// and where a charger that fails its check stalls, from the `regimental_assault` order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AssaultLines {
    pub interruption: f64,
    pub stall: f64,
}

/// The `regimental_assault` order's `interruption` and `stall`, if the rule data has them.
pub fn assault_lines(data: &RuleData) -> Option<AssaultLines> {
    let order = data.order(REGIMENTAL_ASSAULT)?;
    Some(AssaultLines { interruption: order.interruption?, stall: order.stall? })
}

// ------------------------------------------------------------------ rows and rates

/// The state whose row a move uses: limbering is priced on the limbered row.
fn row_state(mover: &Mover<'_>, kind: MoveKind<'_>) -> Option<MoveState> {
    match kind {
        MoveKind::Limber | MoveKind::Unlimber => Some(MoveState::Limbered),
        _ => mover.state,
    }
}

/// The movement row (Ch16 3.1). A formation with its own speed and no row moves by the row of
/// the formation it re-forms into, at its own speeds (open order, Ch13 22.0).
pub(super) fn movement_row(
    data: &RuleData,
    mover: &Mover<'_>,
    kind: MoveKind<'_>,
    formation: Option<&Formation>,
) -> Option<MovementRate> {
    let state = row_state(mover, kind);
    if let Some(row) = data.movement_for(mover.arm, mover.formation, state) {
        return Some(row.clone());
    }
    let formation = formation?;
    let speed = formation.speed?;
    let base = formation.changes.first()?;
    let mut row = data.movement_for(mover.arm, Some(&base.to), state)?.clone();
    row.open = speed;
    row.rough = formation.rough_speed.unwrap_or(speed);
    row.meta.name = Some(formation.meta.title().to_string());
    row.meta.source = Some(format!("{}, {}", row_source(&row), source(&formation.meta.source)));
    Some(row)
}

/// A unit's rate inside a terrain kind, None if it cannot enter (Ch16 4.1, RULINGS C24).
pub(super) fn terrain_rate(
    kind: &TerrainKind,
    row: &MovementRate,
    formation: Option<&Formation>,
    rulings: &Rulings,
) -> Option<f64> {
    match kind.movement {
        TerrainMove::Impassable => None,
        TerrainMove::Passable { column, penalty, .. } => {
            if formation.is_some_and(|f| f.ignores_terrain_slowdown) {
                return Some(row.rate(column));
            }
            match rulings.woods_speed {
                WoodsSpeed::Lower => kind.move_rate(row),
                WoodsSpeed::FormationRate => Some((row.rate(column) + penalty).max(0.0)),
            }
        }
    }
}

/// Inches lost crossing an obstacle, None if the row cannot cross it (Ch16 3.1, 4.2, RULINGS
/// C25).
pub(super) fn obstacle_cost(obstacle: &Obstacle, row: &MovementRate, rulings: &Rulings) -> Option<f64> {
    match rulings.obstacle_cost {
        ObstacleCost::Higher => obstacle.crossing_cost(row),
        ObstacleCost::FormationRate => match row.obstacle {
            RowObstacleCost::Impassable => None,
            RowObstacleCost::Free => Some(0.0),
            RowObstacleCost::Penalty(p) => Some(p.abs()),
            // A dash in the table: the row sets no figure, so the obstacle's own decides.
            RowObstacleCost::Unlisted => Some(match obstacle.crossing {
                Crossing::Inches { cost, .. } => cost,
                Crossing::Unlisted => 0.0,
            }),
        },
    }
}

/// The rate that sets the move: the most restrictive terrain crossed.
struct Basis {
    rate: f64,
    terrain: String,
    rule: String,
}

fn terrain_basis(
    bf: &Battlefield,
    row: &MovementRate,
    formation: Option<&Formation>,
    rulings: &Rulings,
    survey: &Survey,
    impassable: &mut Vec<(FindingKind, String)>,
) -> Basis {
    let mut basis = if survey.on_road {
        Basis { rate: row.rate(MoveColumn::Road), terrain: "road march".into(), rule: row_source(row) }
    } else {
        Basis { rate: row.rate(MoveColumn::Open), terrain: "open ground".into(), rule: row_source(row) }
    };
    let mut consider = |kind: &TerrainKind, name: &Option<String>, flagged: bool| {
        let rate = if flagged { None } else { terrain_rate(kind, row, formation, rulings) };
        match rate {
            None => {
                let kind =
                    FindingKind::Impassable { terrain: kind.meta.title().into(), feature: name.clone() };
                impassable.push((kind, "Ch16 4.1".to_string()));
            }
            Some(rate) if rate < basis.rate => {
                let capped = matches!(kind.movement, TerrainMove::Passable { cap: Some(_), .. });
                let c24 = if capped { ", RULINGS C24" } else { "" };
                basis = Basis {
                    rate,
                    terrain: kind.meta.title().to_string(),
                    rule: format!("{}, {}{c24}", row_source(row), source(&kind.meta.source)),
                };
            }
            Some(_) => {}
        }
    };
    if !survey.on_road {
        for &(index, _) in &survey.areas {
            let area = &bf.areas[index];
            consider(&area.terrain, &area.name, flagged_impassable(&area.flags));
        }
    }
    for meet in survey.lines.iter().filter(|m| m.crossing.is_none()) {
        let line = &bf.lines[meet.line];
        if is_road(&line.terrain) {
            continue;
        }
        consider(&line.terrain, &line.name, flagged_impassable(&line.flags));
    }
    basis
}

pub(super) fn flagged_impassable(flags: &[String]) -> bool {
    flags.iter().any(|f| f == "impassable")
}

fn impassable_area(area: &super::TerrainArea) -> bool {
    area.terrain.movement == TerrainMove::Impassable || flagged_impassable(&area.flags)
}

fn impassable_line(line: &super::TerrainLine) -> bool {
    line.terrain.movement == TerrainMove::Impassable || flagged_impassable(&line.flags)
}

pub(super) fn is_road(kind: &TerrainKind) -> bool {
    matches!(kind.movement, TerrainMove::Passable { column: MoveColumn::Road, .. })
}

/// What the unit's command tier allows (Ch16 2.2, RULINGS G8, C10).
struct Command {
    /// In command for the minimum move: its tier can receive pips (within 24", G8).
    in_command: bool,
    /// Orders that cost pips can reach it.
    pips: bool,
    /// Free moves only straight ahead or back.
    restricted: bool,
    source: String,
}

impl Command {
    const IN_COMMAND: Command =
        Command { in_command: true, pips: true, restricted: false, source: String::new() };
}

fn command(data: &RuleData, tier: Option<u32>) -> Result<Command, String> {
    let Some(level) = tier else { return Ok(Command::IN_COMMAND) };
    let tier = data.tiers().iter().find(|t| t.level == level).ok_or_else(|| format!("tier level {level}"))?;
    let reachable = tier.order_cost != OrderCost::Prohibited;
    Ok(Command {
        in_command: reachable,
        pips: reachable,
        restricted: tier.restricted_moves,
        source: format!("{}, RULINGS G8", source(&tier.meta.source)),
    })
}

// ------------------------------------------------------------------ the path

/// One leg between two poses: a rigid move, straight or a wheel.
#[derive(Clone, Copy, Debug)]
struct Leg {
    from: Pose,
    to: Pose,
    /// Degrees turned clockwise, in (-180, 180].
    turn: f64,
}

impl Leg {
    fn new(from: Pose, to: Pose) -> Leg {
        let mut turn = (to.facing - from.facing).rem_euclid(360.0);
        if turn > 180.0 {
            turn -= 360.0;
        }
        Leg { from, to, turn }
    }

    fn turns(&self) -> bool {
        self.turn.abs() > TURN_NOISE
    }

    /// The pose a fraction `t` of the way: a rotation about the leg's centre of rotation.
    fn along(&self, t: f64) -> Pose {
        let facing = self.from.facing + self.turn * t;
        let (a, b) = (self.from.position, self.to.position);
        // Compass bearings turn clockwise; the rotation in table coordinates is anticlockwise.
        let alpha = -self.turn.to_radians();
        if !self.turns() || alpha.abs() < 1e-6 {
            return Pose::new((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t), facing);
        }
        let (cos, sin) = (alpha.cos(), alpha.sin());
        // The centre c solves b = c + R(a - c), i.e. (I - R) c = b - R a.
        let (rx, ry) = (b.0 - (cos * a.0 - sin * a.1), b.1 - (sin * a.0 + cos * a.1));
        let p = 1.0 - cos;
        let det = p * p + sin * sin;
        let (cx, cy) = ((p * rx - sin * ry) / det, (sin * rx + p * ry) / det);
        let (ct, st) = ((alpha * t).cos(), (alpha * t).sin());
        let (ax, ay) = (a.0 - cx, a.1 - cy);
        Pose::new((cx + ct * ax - st * ay, cy + st * ax + ct * ay), facing)
    }

    /// The arcs the colours and the farther-travelling front corner describe: each point's chord
    /// times (theta / 2) / sin(theta / 2).
    fn arcs(&self, half_width: f64) -> (f64, f64) {
        let theta = self.turn.to_radians().abs();
        let stretch = if theta < 1e-9 { 1.0 } else { (theta / 2.0) / (theta / 2.0).sin() };
        let (fa, fb) = (self.from.frame(), self.to.frame());
        let chord = |a: Coord<f64>, b: Coord<f64>| (b.x - a.x).hypot(b.y - a.y);
        let colours = chord(self.from.coord(), self.to.coord());
        let left = chord(fa.to_table(-half_width, 0.0), fb.to_table(-half_width, 0.0));
        let right = chord(fa.to_table(half_width, 0.0), fb.to_table(half_width, 0.0));
        (colours * stretch, left.max(right).max(colours) * stretch)
    }

    /// A half turn that keeps the unit's ground: its new front is its old rear edge, or it turned
    /// about its colours (Ch16 3.3).
    fn is_about_face(&self, depth: f64) -> bool {
        if self.turn.abs() < 180.0 - FACING_TOLERANCE {
            return false;
        }
        let rear = self.from.frame().to_table(0.0, -depth);
        let near =
            |c: Coord<f64>| (c.x - self.to.position.0).hypot(c.y - self.to.position.1) <= POSITION_TOLERANCE;
        near(rear) || near(self.from.coord())
    }
}

/// A point of the traced path: a pose, how far the colours have come, the stands' layout.
#[derive(Clone, Copy, Debug)]
struct Step {
    pose: Pose,
    s: f64,
    layout: Layout,
}

/// How a path measures up.
struct Measure {
    ground: f64,
    wheel_extra: f64,
    charged_degrees: f64,
    about_faces: u32,
}

struct Path {
    legs: Vec<Leg>,
    /// The path with wheels broken into steps of at most [`WHEEL_STEP`] degrees.
    trace: Vec<Step>,
    /// The trace index of each pose.
    at_pose: Vec<usize>,
    start_layout: Layout,
}

impl Path {
    fn new(poses: &[Pose], start_layout: Layout, end_layout: Layout) -> Path {
        let legs: Vec<Leg> = poses.windows(2).map(|w| Leg::new(w[0], w[1])).collect();
        let mut trace = vec![Step { pose: poses[0], s: 0.0, layout: start_layout }];
        let mut at_pose = vec![0];
        for (i, leg) in legs.iter().enumerate() {
            let steps = if leg.turns() { (leg.turn.abs() / WHEEL_STEP).ceil().max(1.0) as usize } else { 1 };
            for k in 1..=steps {
                let pose = if k == steps { leg.to } else { leg.along(k as f64 / steps as f64) };
                let last = trace[trace.len() - 1];
                let s = last.s
                    + (pose.position.0 - last.pose.position.0).hypot(pose.position.1 - last.pose.position.1);
                let layout = if i + 1 == legs.len() && k == steps { end_layout } else { start_layout };
                trace.push(Step { pose, s, layout });
            }
            at_pose.push(trace.len() - 1);
        }
        Path { legs, trace, at_pose, start_layout }
    }

    /// The pose `s` inches along the traced path.
    fn pose_at(&self, s: f64) -> Pose {
        let last = self.trace[self.trace.len() - 1];
        if s >= last.s {
            return last.pose;
        }
        for pair in self.trace.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if s <= b.s {
                let t = if b.s - a.s > 0.0 { (s - a.s) / (b.s - a.s) } else { 1.0 };
                let turn = Leg::new(a.pose, b.pose).turn;
                let (pa, pb) = (a.pose.position, b.pose.position);
                return Pose::new(
                    (pa.0 + (pb.0 - pa.0) * t, pa.1 + (pb.1 - pa.1) * t),
                    a.pose.facing + turn * t,
                );
            }
        }
        last.pose
    }

    /// The poses of the path cut off `s` inches along.
    fn poses_until(&self, s: f64) -> Vec<Pose> {
        let mut poses: Vec<Pose> =
            self.at_pose.iter().filter(|&&i| self.trace[i].s < s).map(|&i| self.trace[i].pose).collect();
        poses.push(self.pose_at(s));
        poses
    }

    fn footprint(step: &Step) -> Polygon<f64> {
        footprint(step.pose.position, step.pose.facing, step.layout)
    }

    /// The ground the stands sweep, as the hulls of consecutive footprints.
    fn hulls(&self) -> Vec<Polygon<f64>> {
        if self.trace.len() == 1 {
            return vec![Path::footprint(&self.trace[0])];
        }
        self.trace
            .windows(2)
            .map(|pair| {
                MultiPolygon::new(vec![Path::footprint(&pair[0]), Path::footprint(&pair[1])]).convex_hull()
            })
            .collect()
    }

    /// Where the colours' path meets a line: the distances along it (the start excluded), in
    /// order, each with its point. `collinear`: running along the line counts.
    fn meets(&self, line: &LineString<f64>, collinear: bool) -> Vec<(f64, Coord<f64>)> {
        let mut found = Vec::new();
        for pair in self.trace.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            if b.s - a.s <= 0.0 {
                continue;
            }
            let segment = Line::new(a.pose.coord(), b.pose.coord());
            let at = |c: Coord<f64>| (a.s + (c.x - segment.start.x).hypot(c.y - segment.start.y), c);
            for edge in line.lines() {
                match line_intersection(segment, edge) {
                    Some(LineIntersection::SinglePoint { intersection, .. }) => found.push(at(intersection)),
                    Some(LineIntersection::Collinear { intersection }) if collinear => {
                        found.push(at(intersection.start));
                        found.push(at(intersection.end));
                    }
                    _ => {}
                }
            }
        }
        found.retain(|(s, _)| *s > MEASURE_PRECISION);
        found.sort_by(|a, b| a.0.total_cmp(&b.0));
        found.dedup_by(|a, b| (a.0 - b.0).abs() <= MEASURE_PRECISION);
        found
    }

    /// The ground, the wheels beyond the free one, and the about faces (see the module doc).
    fn measure(&self, free_wheel: f64, free_pivot: bool) -> Measure {
        let half = self.start_layout.width() / 2.0;
        let depth = self.start_layout.depth();
        let mut measure = Measure { ground: 0.0, wheel_extra: 0.0, charged_degrees: 0.0, about_faces: 0 };
        let mut wheeled = false;
        for leg in &self.legs {
            if leg.is_about_face(depth) {
                measure.about_faces += 1;
                continue;
            }
            let (colours, outer) = leg.arcs(half);
            measure.ground += colours;
            if !leg.turns() {
                continue;
            }
            let turn = leg.turn.abs();
            let free = if free_pivot {
                turn
            } else if wheeled {
                0.0
            } else {
                turn.min(free_wheel)
            };
            wheeled = true;
            let charged = turn - free;
            if charged > 0.0 {
                measure.charged_degrees += charged;
                measure.wheel_extra += (outer - colours) * charged / turn;
            }
        }
        measure
    }
}

// ------------------------------------------------------------------ what the path meets

/// Where the colours' path meets a line terrain feature.
struct LineMeet {
    /// [`Battlefield::lines`] index.
    line: usize,
    /// At a bridge or ford, which one.
    crossing: Option<CrossingPoint>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CrossingPoint {
    Ford,
    Bridge,
}

/// Everything the move passes over.
struct Survey {
    /// Areas ([`Battlefield::areas`] indices) the stands sweep into, and whether the unit
    /// entered (it did not start in it).
    areas: Vec<(usize, bool)>,
    /// Areas that take a full turn to leave (Ch16 4.1) the unit starts in and ends out of, with
    /// how far its end footprint is from each.
    exits: Vec<(usize, f64)>,
    lines: Vec<LineMeet>,
    /// One [`Battlefield::obstacles`] index per crossing.
    obstacles: Vec<usize>,
    on_road: bool,
    off_table: bool,
    friends_passed: Vec<usize>,
    friends_at_end: Vec<usize>,
}

impl Survey {
    /// The terrain kinds crossed, bridges and fords aside, each once.
    fn terrain_crossed<'b>(&self, bf: &'b Battlefield) -> Vec<&'b TerrainKind> {
        let mut kinds: Vec<&TerrainKind> = Vec::new();
        let areas = self.areas.iter().map(|&(i, _)| &bf.areas[i].terrain);
        let lines = self.lines.iter().filter(|m| m.crossing.is_none()).map(|m| &bf.lines[m.line].terrain);
        for kind in areas.chain(lines) {
            if !kinds.iter().any(|k| k.meta.id == kind.meta.id) {
                kinds.push(kind);
            }
        }
        kinds
    }
}

fn survey(bf: &Battlefield, path: &Path, friends: &[Body]) -> Survey {
    let hulls = path.hulls();
    let start = Path::footprint(&path.trace[0]);
    let end = Path::footprint(&path.trace[path.trace.len() - 1]);
    let mut areas = Vec::new();
    let mut exits = Vec::new();
    for (index, area) in bf.areas.iter().enumerate() {
        if hulls.iter().any(|h| crate::geometry::overlap_area(h, &area.outline) > AREA_NOISE) {
            let started_in = crate::geometry::overlap_area(&start, &area.outline) > AREA_NOISE;
            areas.push((index, !started_in));
            if started_in
                && area.terrain.exit_full_turn
                && crate::geometry::overlap_area(&end, &area.outline) <= AREA_NOISE
            {
                use geo::{Distance, Euclidean};
                exits.push((index, Euclidean.distance(&end, &area.outline)));
            }
        }
    }
    let mut lines = Vec::new();
    for (index, feature) in bf.lines.iter().enumerate() {
        for (_, at) in path.meets(&feature.line, true) {
            let near = |points: &[(f64, f64)]| {
                points.iter().any(|&(x, y)| measured((x - at.x).hypot(y - at.y)) <= CROSSING_TOLERANCE)
            };
            let crossing = if near(&feature.bridges) {
                Some(CrossingPoint::Bridge)
            } else if near(&feature.fords) {
                Some(CrossingPoint::Ford)
            } else {
                None
            };
            lines.push(LineMeet { line: index, crossing });
        }
    }
    let mut obstacles = Vec::new();
    for (index, obstacle) in bf.obstacles.iter().enumerate() {
        obstacles.extend(path.meets(&obstacle.line, false).iter().map(|_| index));
    }
    let roads: Vec<&LineString<f64>> =
        bf.lines.iter().filter(|l| is_road(&l.terrain)).map(|l| &l.line).collect();
    let on_road = !roads.is_empty() && path.trace[path.trace.len() - 1].s > 0.0 && follows(path, &roads);
    let off_table = bf.table.is_some_and(|(width, depth)| {
        let e = MEASURE_PRECISION;
        hulls.iter().any(|h| {
            h.exterior_coords_iter().any(|c| c.x < -e || c.y < -e || c.x > width + e || c.y > depth + e)
        })
    });
    let mut friends_passed = Vec::new();
    let mut friends_at_end = Vec::new();
    for (index, friend) in friends.iter().enumerate() {
        let theirs = friend.footprint();
        if hulls.iter().any(|h| crate::geometry::overlap_area(h, &theirs) > AREA_NOISE) {
            friends_passed.push(index);
        }
        if crate::geometry::overlap_area(&end, &theirs) > AREA_NOISE {
            friends_at_end.push(index);
        }
    }
    Survey { areas, exits, lines, obstacles, on_road, off_table, friends_passed, friends_at_end }
}

/// Every point of the colours' path is within [`ROAD_TOLERANCE`] of a road.
fn follows(path: &Path, roads: &[&LineString<f64>]) -> bool {
    path.trace
        .windows(2)
        .all(|pair| segment_on_road(pair[0].pose.coord(), pair[1].pose.coord(), pair[1].s - pair[0].s, roads))
}

/// Every point of the segment from `a` to `b` (`length` inches long) is within
/// [`ROAD_TOLERANCE`] of a road, sampled every [`ROAD_SAMPLE`].
fn segment_on_road(a: Coord<f64>, b: Coord<f64>, length: f64, roads: &[&LineString<f64>]) -> bool {
    let near = |c: Coord<f64>| {
        let p = Point::from(c);
        roads.iter().any(|road| measured(Euclidean.distance(&p, *road)) <= ROAD_TOLERANCE)
    };
    let samples = (length / ROAD_SAMPLE).ceil().clamp(1.0, MAX_SAMPLES) as usize;
    (0..=samples).all(|k| {
        let t = k as f64 / samples as f64;
        near(Coord { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t })
    })
}

/// Whether the straight way from `from` to `to` runs along a road the whole way (within
/// [`ROAD_TOLERANCE`] of one at every point): the horse holders' road move (Ch13 6.0).
pub fn straight_on_road(bf: &Battlefield, from: (f64, f64), to: (f64, f64)) -> bool {
    let roads: Vec<&LineString<f64>> =
        bf.lines.iter().filter(|l| is_road(&l.terrain)).map(|l| &l.line).collect();
    let (a, b) = (Coord { x: from.0, y: from.1 }, Coord { x: to.0, y: to.1 });
    !roads.is_empty() && segment_on_road(a, b, (to.0 - from.0).hypot(to.1 - from.1), &roads)
}

/// Where a charge halts at water.
struct Halt {
    s: f64,
    pose: Pose,
    feature: String,
    source: String,
}

/// The first point where a charge halts (Ch16 4.1 `halts_charges`, RULINGS G10): the colours'
/// path meets such water away from a bridge, and the charge stops where the unit's footprint
/// first touches it.
fn charge_halt(bf: &Battlefield, path: &Path) -> Option<Halt> {
    let mut first: Option<Halt> = None;
    for feature in &bf.lines {
        if !feature.terrain.halts_charges {
            continue;
        }
        let meets = path.meets(&feature.line, true);
        let Some(&(s_meet, _)) = meets.iter().find(|(_, at)| {
            !feature.bridges.iter().any(|&(x, y)| measured((x - at.x).hypot(y - at.y)) <= CROSSING_TOLERANCE)
        }) else {
            continue;
        };
        let s = first_touch(path, &feature.line, s_meet);
        if first.as_ref().is_none_or(|h| s < h.s) {
            let name = feature.name.clone().unwrap_or_else(|| feature.terrain.meta.title().to_string());
            first = Some(Halt {
                s,
                pose: path.pose_at(s),
                feature: name,
                source: source(&feature.terrain.meta.source),
            });
        }
    }
    first
}

/// The least distance along the path, at most `limit`, at which the footprint touches `line`.
fn first_touch(path: &Path, line: &LineString<f64>, limit: f64) -> f64 {
    let layout = path.start_layout;
    let touches = |s: f64| {
        let pose = path.pose_at(s);
        footprint(pose.position, pose.facing, layout).intersects(line)
    };
    if touches(0.0) {
        return 0.0;
    }
    // Step out to the first touch, then halve the step until it is measured to the precision.
    let step = (layout.depth() / 4.0).max(limit / MAX_SAMPLES).max(0.01);
    let mut free = 0.0;
    let mut hit = limit;
    let mut s = step;
    while s < limit {
        if touches(s) {
            hit = s;
            break;
        }
        free = s;
        s += step;
    }
    while hit - free > MEASURE_PRECISION / 10.0 {
        let middle = (free + hit) / 2.0;
        if touches(middle) { hit = middle } else { free = middle }
    }
    measured(hit)
}

/// A move that must go straight back, keeping its facing (Ch16 3.3, 7.4).
fn straight_back(path: &Path, report: &mut MoveReport, rule: &str) {
    let frame = path.trace[0].pose.frame();
    let mut drift: f64 = 0.0;
    let mut turned: f64 = 0.0;
    let mut forward = false;
    for leg in &path.legs {
        let (across, ahead) = frame.to_local(leg.to.coord());
        drift = drift.max(across.abs());
        forward |= ahead > POSITION_TOLERANCE;
        turned = turned.max(Leg::new(path.trace[0].pose, leg.to).turn.abs());
    }
    if drift > POSITION_TOLERANCE || turned > FACING_TOLERANCE || forward {
        report.add(FindingKind::NotStraightBack { drift: measured(drift), turned: measured(turned) }, rule);
    }
}

// ------------------------------------------------------------------ wording

fn sum(parts: &[Part]) -> f64 {
    parts.iter().map(|p| p.inches).sum()
}

fn source(source: &Option<String>) -> String {
    source.clone().unwrap_or_else(|| "Ch16 3.1".to_string())
}

fn row_source(row: &MovementRate) -> String {
    source(&row.meta.source)
}

fn title_of(formation: Option<&Formation>) -> String {
    formation.map_or_else(|| "no formation".to_string(), |f| f.meta.title().to_string())
}

fn cost_word(cost: Cost) -> String {
    match cost {
        Cost::Half => "half the move".into(),
        Cost::All => "the whole move".into(),
        Cost::Inches(n) => format!("{}\"", inches(n)),
    }
}

/// Inches as a table reads them: one decimal when that is exact, else two.
fn inches(value: f64) -> String {
    let tenths = value * 10.0;
    if (tenths - tenths.round()).abs() < 1e-6 { format!("{value:.1}") } else { format!("{value:.2}") }
}

mod retreat;
pub use retreat::{BlockedEnd, blocked_retreat_ends};

#[cfg(test)]
mod tests;
