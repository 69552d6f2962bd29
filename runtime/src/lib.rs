//! The rules runtime of Dress on the Colors.
//!
//! Pure: no IO, no clock, no ambient randomness. Rule numbers come from the rule data of
//! `dotc-lang` (the stdlib), never from constants here. It holds:
//!
//! - `geometry`: the table geometry scenario checks need (unit footprints), and `check`: those
//!   checks, and `check_file`, all that `dotc check` does for one file.
//! - `audit`: a replay's findings as diagnostics, with the umpire's `@allow` suppressions.
//! - `battlefield`: the table and its terrain resolved against the rule data, units' bodies, and
//!   the geometric queries of the rules: range, arcs and enfilade, line of sight, cover,
//!   elevation, contact.
//! - `dice`: the dice sources of the engine: the dice a log recorded (a missing or impossible die is
//!   an error, never a guess) or a seeded stream with our own d6 mapping; every die is kept with
//!   its purpose. The 1D3 of RULINGS G2.
//! - `odds`: the exact odds of one volley of fire (Ch16 5.0-5.7), and a Monte Carlo check.
//! - `render`: maps of the battlefield as SVG (the table to scale, terrain, units as their
//!   stands, a legend), deterministic to the byte.
//! - `rulings`: the switchable rulings of RULINGS.md as typed values, built from a scenario's or a
//!   log's `rules` blocks, with the defaults and the `as_printed` preset.
//!
//! - `engine`: the rules engine: game state, volleys, assaults, melees, morale and leaders, each
//!   resolution returning typed events that cite the rule they applied.
//!
//! - `script`: scenario scripts (rhai hooks, triggers, victory `when` expressions) in a sandboxed
//!   engine: compiled once per game, reading views of the game and acting only through recorded
//!   effects.
//!
//! Replay builds on these.

pub mod analyze;
pub mod audit;
pub mod battlefield;
pub mod campaign;
pub mod check;
pub mod dice;
pub mod engine;
pub mod geometry;
pub mod luck;
pub mod odds;
pub mod render;
pub mod replay;
pub mod roster;
pub mod rulings;
pub mod script;
