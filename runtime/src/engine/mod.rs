//! The rules engine: combat and morale resolved exactly, deterministically, and explained.
//!
//! Pure: no IO, no clock, no randomness but the [`DiceSource`] it is handed. Every resolution
//! takes the game state, the [`Rules`] (rule data, rulings, optional modules) and a dice source,
//! and returns the [`Event`]s it produced, each citing the rule it applied. A resolution either
//! completes or changes nothing: it works on a copy of the state and commits it only when no die
//! was missing (see [`transact`]), so an audit can report a short log without a half-applied
//! volley.
//!
//! - [`state`]: sides, brigades, leaders, units and their markers.
//! - [`events`]: what a resolution reports.
//! - [`tables`]: the stdlib entries the engine reads, checked once.
//! - [`morale`]: health states, Discipline checks, Disorder and double Disorder, casualties
//!   (micro-hits, shatter, the brigade tally), brigade faltering, leader casualties, rallies.
//! - [`fire`]: a volley (Ch16 5.0-5.7, RULE-05-x).
//! - [`melee`]: the opposed melee (Ch16 7.3, 7.4) and [`assault`]: the charge to the 4" line,
//!   the closing volley and the pre-contact check (Ch16 7.1, 7.2).
//! - [`phase_four`]: what a melee the log fights in Phase 2 leaves until Phase 4 (dotc D51).

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use dotc_lang::library::RuleData;

use crate::dice::{DiceError, DiceSource};
use crate::rulings::Rulings;

pub mod assault;
pub mod bidding;
pub mod blinds;
pub mod events;
pub mod fire;
pub mod flank;
pub mod friction;
pub mod guns;
pub mod melee;
pub mod morale;
pub mod phase_four;
pub mod setup;
pub mod state;
pub mod tables;
pub mod wave;
pub mod weather;

pub use events::{Event, What};
pub use state::GameState;
pub use tables::Tables;

/// Everything about *how* a game is played: the rule data, the rulings and the optional modules
/// switched on (Ch13, RULE-05-2.5b).
#[derive(Clone, Debug)]
pub struct Rules {
    /// Shared, so a copy of the rules (a what-if, an odds query) costs no copy of the data.
    pub data: Arc<RuleData>,
    pub tables: Arc<Tables>,
    pub rulings: Rulings,
    /// The names (`dotc_lang::rulings::Module::name`) of the modules that are on.
    pub modules: BTreeSet<String>,
}

impl Rules {
    pub fn new(
        data: RuleData,
        rulings: Rulings,
        modules: impl IntoIterator<Item = String>,
    ) -> Result<Rules, EngineError> {
        let tables = Tables::from_rule_data(&data)?;
        Ok(Rules {
            data: Arc::new(data),
            tables: Arc::new(tables),
            rulings,
            modules: modules.into_iter().collect(),
        })
    }

    /// Rules over the embedded stdlib, its tables read once per process (the stdlib never
    /// changes), so pricing a query against it costs no copy of the rule data.
    pub fn over_stdlib(
        rulings: Rulings,
        modules: impl IntoIterator<Item = String>,
    ) -> Result<Rules, EngineError> {
        type Read = Result<(Arc<RuleData>, Arc<Tables>), EngineError>;
        static STDLIB: std::sync::OnceLock<Read> = std::sync::OnceLock::new();
        let (data, tables) = STDLIB
            .get_or_init(|| {
                let data = dotc_lang::stdlib().clone();
                let tables = Tables::from_rule_data(&data)?;
                Ok((Arc::new(data), Arc::new(tables)))
            })
            .clone()?;
        Ok(Rules { data, tables, rulings, modules: modules.into_iter().collect() })
    }

    /// The stdlib with these rulings and no optional module.
    pub fn stdlib(rulings: Rulings) -> Result<Rules, EngineError> {
        Rules::over_stdlib(rulings, [])
    }

    pub fn module(&self, id: &str) -> bool {
        self.modules.contains(id)
    }

    /// A trait entry by id.
    pub fn trait_def(&self, id: &str) -> Option<&dotc_lang::library::Trait> {
        self.data.traits().iter().find(|t| t.meta.id == id)
    }

    /// Whether a trait a scenario assigns to a unit counts in this game: one that belongs to an
    /// optional module counts only with that module on (Ch13 5.0: the historical traits are the
    /// Army Traits module, dotc D8; Ch13 9.0: the Elite Sharpshooter regiment). An unknown id
    /// counts for nothing. A trait a quality gives (RULINGS C28) is not asked about: it always
    /// counts.
    pub fn trait_in_force(&self, id: &str) -> bool {
        self.trait_def(id).is_some_and(|t| t.module.as_deref().is_none_or(|m| self.module(m)))
    }

    /// The command tier a distance from the brigadier falls in (Ch16 2.2): the lowest level whose
    /// reach covers it.
    pub fn tier_at(&self, distance: f64) -> Option<&dotc_lang::library::Tier> {
        use dotc_lang::library::Reach;
        let mut tiers: Vec<&dotc_lang::library::Tier> = self.data.tiers().iter().collect();
        tiers.sort_by_key(|t| t.level);
        tiers.into_iter().find(|t| match t.reach {
            Reach::Within(d) => distance <= d,
            Reach::Beyond(d) => distance > d,
        })
    }
}

/// Why a resolution could not be made. Nothing is changed when one is returned.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// A die the log did not record, or a face no d6 shows.
    Dice(DiceError),
    /// A unit, brigade or leader the state does not have.
    Unknown(String),
    /// The rules forbid the action (a Broken unit firing, a Disordered unit charging...).
    Illegal { unit: String, why: String, rule: &'static str },
    /// A stdlib entry the engine needs is missing from the rule data.
    MissingRuleData(&'static str),
}

impl From<DiceError> for EngineError {
    fn from(e: DiceError) -> EngineError {
        EngineError::Dice(e)
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Dice(e) => e.fmt(f),
            EngineError::Unknown(what) => write!(f, "no {what} in this game"),
            EngineError::Illegal { unit, why, rule } => write!(f, "{unit} may not {why} ({rule})"),
            EngineError::MissingRuleData(what) => write!(f, "the rule data has no {what}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// The last event that tells where in an action a roll comes (a result, not a die or a note),
/// for a finding about a missing die.
pub(crate) fn telling(events: &[Event]) -> Option<&What> {
    events.iter().rev().map(|e| &e.what).find(|w| {
        !matches!(
            w,
            What::Rolled { .. }
                | What::Note { .. }
                | What::Moved { .. }
                | What::Tally { .. }
                | What::Pips { .. }
                | What::Volley { .. }
        )
    })
}

/// Run `f` on a copy of the state and keep the copy only if it succeeds: a resolution changes
/// everything it should or nothing at all.
pub fn transact<T>(
    state: &mut GameState,
    f: impl FnOnce(&mut GameState) -> Result<T, EngineError>,
) -> Result<T, EngineError> {
    // The copy is made over the last call's (issue 16: a fresh copy at every call, and its drop,
    // were a twentieth of a long replay, nearly all of it allocation).
    let mut copy = SPARE.with(|spare| spare.take()).unwrap_or_default();
    copy.clone_from(state);
    let out = f(&mut copy);
    if out.is_ok() {
        std::mem::swap(state, &mut copy);
    }
    SPARE.with(|spare| spare.set(Some(copy)));
    out
}

thread_local! {
    /// The state [`transact`] last left behind (the one before its call, or the refused copy).
    static SPARE: std::cell::Cell<Option<GameState>> = const { std::cell::Cell::new(None) };
}

/// Roll dice and record them as an event.
pub(crate) fn roll(
    dice: &mut dyn DiceSource,
    purpose: crate::dice::Purpose,
    count: usize,
    events: &mut Vec<Event>,
    rule: &'static str,
) -> Result<Vec<u8>, EngineError> {
    roll_for(dice, purpose, count, events, purpose.roll_name(), rule)
}

/// Roll dice for `what` (a roll a log may leave out: the source is told what it is for, so a
/// missing die can be named, [`DiceSource::announce`]) and record them as an event.
pub(crate) fn roll_for(
    dice: &mut dyn DiceSource,
    purpose: crate::dice::Purpose,
    count: usize,
    events: &mut Vec<Event>,
    what: &str,
    rule: &'static str,
) -> Result<Vec<u8>, EngineError> {
    dice.announce(crate::dice::RollFor { what, rule, after: None });
    let faces = dice.roll(purpose, count)?;
    if !faces.is_empty() {
        events.push(Event::new(What::Rolled { purpose, faces: faces.clone() }, rule));
    }
    Ok(faces)
}
#[cfg(test)]
mod proptests;
#[cfg(test)]
pub(crate) mod testkit;
