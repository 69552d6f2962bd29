//! The rules runtime of Dress on the Colors.
//!
//! Pure: no IO, no clock, no ambient randomness. Rule numbers come from the rule data of
//! `dotc-lang` (the stdlib), never from constants here. This first slice holds the table
//! geometry that scenario checks need (unit footprints) and those checks; the engine, the
//! battlefield queries and replay build on it.

pub mod check;
pub mod geometry;
