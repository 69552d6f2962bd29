//! Exact odds of one volley of fire (Ch16 5.0-5.7, RULE-05-x), and a Monte Carlo check of them.
//!
//! Pure: no IO. The odds do not model the rules a second time: they read the engine's plan of
//! the volley ([`crate::engine::fire::plan_volley`]), the one place where the pool, the to-hit
//! number and every modifier, the Shock trigger and its save, the cover save, the skirmish
//! screen and the target's casualty bookkeeping are worked out, and compute its exact
//! distribution ([`plan_odds`]). A [`FireQuery`] (what `dotc odds fire` asks) is turned into a
//! small game state with the firer and the target as the flags describe them, planned by the
//! engine, then priced; `dotc odds --at FILE:LINE` and the language server price the plan the
//! replay made of a logged volley. A property test (`odds/plan_tests.rs`) checks that the engine,
//! rolling every dice outcome, gives exactly these distributions.
//!
//! What a query does not need to make again is kept per thread, each piece with everything it
//! was made from, so a kept piece is the one a fresh computation gives (`odds/memo_tests.rs`):
//! the stand-in table, its strings and vectors reused with the next query's flags set; the
//! engine's casualty table, remembered by the target's side of the table, the rules and the
//! plan's target, dice and screen ([`crate::engine::fire::remembered_casualty_table`]); and the
//! buffers of the pricing, with the last volley's distributions kept by the plan's numbers they
//! are a function of. [`forget_remembered`] drops what is remembered.
//!
//! How a [`FireQuery`] reads its flags:
//! - `Cover::Light` is the Light cover of a frontal linear obstacle (a fence, the case
//!   RULE-05-1.5 names), so enfilade takes it away under both RULINGS C15 settings and a field
//!   howitzer ignores it (Ch16 5.3); `Cover::Heavy` is heavy cover with no named entry.
//! - The firer's arm follows the weapon class: artillery fires as an unlimbered battery,
//!   carbines and shotguns as dismounted cavalry (RULINGS C21 bands), other small arms as
//!   infantry, in line. The target is a Fresh regular infantry regiment large enough that no
//!   volley shatters it, with no micro-hit, unless the query says otherwise.

use std::fmt;

use dotc_lang::library::{CoverClass, RuleData, WeaponClass};
use serde::Serialize;

use crate::dice::{D6Stream, DiceError, DiceSource, Purpose, Roll};
use crate::engine::fire::{
    CasualtyTable, CoverInput, FireInput, FireKind, VolleyPlan, plan_volley, remembered_casualty_table,
    resolve_plan,
};
use crate::engine::state::{Arm, GameState, Screen, Unit, UnitId};
use crate::engine::{EngineError, Rules};
use crate::rulings::Rulings;

/// The cover the target stands in (Ch16 5.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    Open,
    Light,
    Heavy,
}

/// The target's formation, as far as it changes its saves (Ch16 3.2, 5.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetFormation {
    Line,
    /// Assault column: -1 save against artillery (RULE-05-2.5, RULINGS C30).
    Column,
    /// Road column: -2 save (Ch16 5.6).
    Road,
    /// Skirmish order: saves 5+ in the open (Ch16 5.6).
    Skirmish,
    /// An unlimbered battery: artillery firing at it is counter-battery fire under the
    /// `advanced_artillery` module (Ch13 7.0).
    Battery,
}

impl TargetFormation {
    /// The stdlib formation entry.
    fn formation_id(self) -> &'static str {
        match self {
            TargetFormation::Line | TargetFormation::Battery => "line",
            TargetFormation::Column => "assault_column",
            TargetFormation::Road => "road_column",
            TargetFormation::Skirmish => "skirmish",
        }
    }
}

/// One volley to price.
#[derive(Clone, Debug, PartialEq)]
pub struct FireQuery {
    /// A weapon id of the rule data.
    pub weapon: String,
    /// Stands firing (sections for artillery).
    pub stands: u32,
    /// Inches to the target.
    pub range: f64,
    pub cover: Cover,
    pub target: TargetFormation,
    /// Sight passes through gunsmoke (-1 beyond 6", Ch16 5.7).
    pub smoke: bool,
    /// Firing through the unit's own skirmish screen (RULE-05-6.2).
    pub screen: bool,
    /// Enfilade fire (RULE-05-1.5, RULINGS C15).
    pub enfilade: bool,
    /// The firer carries Disorder (RULE-05-4.4).
    pub disordered: bool,
    /// The firer's brigade is Hesitant (RULINGS C13).
    pub hesitant: bool,
    /// Concentrated Battery Fire (RULE-05-2.4).
    pub concentrated: bool,
    /// Which fire this is: Phase 3, Opportunity Fire or a closing volley (RULINGS C13, Ch13 20.0).
    pub kind: FireKind,
    /// Pivoted or re-formed before firing (Ch16 5.1).
    pub pivoted: bool,
    /// The firer carries Low Ammo (RULE-05-2.5b, Ch16 11.0).
    pub low_ammo: bool,
    /// A Sudden Squall was rolled this turn: the pool is halved, rounded down (Ch13 3.0).
    pub squall: bool,
    /// The target has its own skirmish screen ahead of it (Ch16 3.4, RULINGS G12).
    pub target_screened: bool,
    /// The firer's traits by rule data id (Ch16 9.0: sharpshooters, buck_and_ball...).
    pub traits: Vec<String>,
    /// The target's traits by rule data id (steady, iron_discipline...).
    pub target_traits: Vec<String>,
    /// Optional modules switched on (Ch13).
    pub modules: Vec<String>,
    /// The target stands behind hasty works (module digging_in, Ch13 14.0): its `cover` is the
    /// ground they were dug on, upgraded one class (open to light, light or heavy to heavy,
    /// RULINGS G17), with the works' own save.
    pub works: bool,
    /// A friendly formed regiment stands in second line behind the target (module second_line,
    /// Ch13 19.0, switched on by this): +1 on the target's Discipline saves.
    pub target_supported: bool,
}

impl FireQuery {
    /// Rifle-range defaults: open ground, a line, no modifiers, Phase 3.
    pub fn new(weapon: &str, stands: u32, range: f64) -> FireQuery {
        FireQuery {
            weapon: weapon.to_string(),
            stands,
            range,
            cover: Cover::Open,
            target: TargetFormation::Line,
            smoke: false,
            screen: false,
            enfilade: false,
            disordered: false,
            hesitant: false,
            concentrated: false,
            kind: FireKind::Phase3,
            pivoted: false,
            low_ammo: false,
            squall: false,
            target_screened: false,
            traits: Vec::new(),
            target_traits: Vec::new(),
            modules: Vec::new(),
            works: false,
            target_supported: false,
        }
    }
}

/// The exact odds of one volley. The JSON field names are a fixed interface.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FireOdds {
    /// Dice rolled, bonus dice included (RULE-05-2.1, RULINGS G16).
    pub dice: u32,
    /// The range band's name.
    pub band: String,
    /// The to-hit number after every modifier (Ch16 5.6; clamped 2..6 under RULINGS G1).
    pub to_hit: i32,
    /// The cover save after every modifier, None if the target has none.
    pub save: Option<i32>,
    /// Chance one die hits.
    pub p_hit: f64,
    pub expected_hits: f64,
    pub expected_unsaved: f64,
    /// expected_unsaved / 2: two unsaved hits remove a stand (RULE-05-3.3), the Ch15 convention
    /// (over a game the odd hit waits as a micro-hit). `stands_lost` is this volley's own.
    pub expected_stands_lost: f64,
    /// Chance of a Shock trigger (RULE-05-4.1, RULINGS C3).
    pub p_shock: f64,
    /// Chance that Shock or a canister disorders the target (a micro-hit if it already is):
    /// the trigger, not ignored, and the Discipline save failed (RULE-05-4.2, Ch16 5.3, 5.5).
    pub p_shock_disorder: f64,
    /// P(k hits), k = 0..=dice (after any Sharpshooters re-roll).
    pub hits: Vec<f64>,
    /// P(k unsaved hits) (after any Steady re-roll).
    pub unsaved: Vec<f64>,
    /// P(the volley's fire removes k stands from the target as it stands: its micro-hit, its
    /// screen, a double-Disorder micro-hit from Shock and the shatter included; the follow-up
    /// tests after the casualties are not).
    pub stands_lost: Vec<f64>,
}

/// Why a volley cannot be priced.
#[derive(Clone, Debug, PartialEq)]
pub enum OddsError {
    UnknownWeapon(String),
    OutOfRange {
        weapon: String,
        range: f64,
        max_range: f64,
    },
    NoStands,
    /// More stands than [`MAX_STANDS`].
    TooManyStands(u32),
    /// Concentrated Battery Fire with a weapon that is not artillery (RULE-05-2.4).
    NotArtillery(String),
    /// A stdlib entry the odds need is missing from the rule data.
    MissingRuleData(&'static str),
    /// The engine refuses the volley (its words, with the rule).
    Engine(String),
}

impl fmt::Display for OddsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OddsError::UnknownWeapon(w) => write!(f, "unknown weapon `{w}`"),
            OddsError::OutOfRange { weapon, range, max_range } => {
                write!(f, "`{weapon}` cannot fire at {range}\": out of range (it reaches 0 to {max_range}\")")
            }
            OddsError::NoStands => write!(f, "a volley needs at least 1 stand or section"),
            OddsError::TooManyStands(n) => {
                write!(f, "{n} stands is more than one volley can have (at most {MAX_STANDS})")
            }
            OddsError::NotArtillery(w) => {
                write!(f, "concentrated battery fire is for artillery (RULE-05-2.4); `{w}` is not artillery")
            }
            OddsError::MissingRuleData(id) => write!(f, "the rule data has no `{id}` entry"),
            OddsError::Engine(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for OddsError {}

/// The most stands (or sections) one volley may have: far above any regiment or battery, low
/// enough that the distributions stay small.
pub const MAX_STANDS: u32 = 500;

/// A query checked against the rule data: the rules to plan it under, the firer's arm, the
/// stand-in target's stands and the facts of the shot.
struct Checked {
    rules: Rules,
    arm: Arm,
    target_stands: u32,
    input: FireInput,
}

/// Check a query against the rule data (its weapon, stands, range, traits and modules) and read
/// what the table needs from it: the firer's arm by weapon class (artillery an unlimbered
/// battery, carbines and shotguns dismounted cavalry under the RULINGS C21 bands, other small
/// arms infantry) and the facts of the shot.
fn check_query(q: &FireQuery, data: &RuleData, rulings: &Rulings) -> Result<Checked, OddsError> {
    let weapon = data.weapon(&q.weapon).ok_or_else(|| OddsError::UnknownWeapon(q.weapon.clone()))?;
    if q.stands == 0 {
        return Err(OddsError::NoStands);
    }
    // A pool larger than any table holds would only make the distributions huge.
    if q.stands > MAX_STANDS {
        return Err(OddsError::TooManyStands(q.stands));
    }
    let artillery =
        weapon.class == WeaponClass::Artillery || weapon.dice.per == dotc_lang::library::DicePer::Section;
    if q.concentrated && !artillery {
        return Err(OddsError::NotArtillery(q.weapon.clone()));
    }
    let arm = match weapon.class {
        WeaponClass::Artillery => Arm::Battery { limbered: false },
        WeaponClass::Carbine | WeaponClass::Shotgun => {
            Arm::Cavalry { mounted: false, horse_holders: 0, can_remount: true }
        }
        WeaponClass::SmallArm => Arm::Infantry,
    };
    let weapon_arm = crate::engine::fire::plan::weapon_arm(&arm);
    if !q.range.is_finite() || weapon.band_at(weapon_arm, q.range).is_none() {
        return Err(OddsError::OutOfRange {
            weapon: q.weapon.clone(),
            range: q.range,
            max_range: weapon.max_range(weapon_arm),
        });
    }
    for id in q.traits.iter().chain(&q.target_traits) {
        if !data.traits().iter().any(|t| t.meta.id == *id) {
            let known: Vec<&str> = data.traits().iter().map(|t| t.meta.id.as_str()).collect();
            return Err(OddsError::Engine(format!(
                "unknown trait `{id}` (the traits are {})",
                known.join(", ")
            )));
        }
    }
    for m in &q.modules {
        if dotc_lang::rulings::Module::from_name(m).is_none() {
            let known: Vec<&str> = dotc_lang::rulings::Module::ALL.iter().map(|m| m.name()).collect();
            return Err(OddsError::Engine(format!(
                "unknown module `{m}` (the modules are {})",
                known.join(", ")
            )));
        }
    }
    // The stdlib's tables are read once per process; other rule data is read for the query.
    // Ch13 19.0: support from a second line is the module's.
    let second_line = dotc_lang::rulings::Module::SecondLine.name().to_string();
    let modules = q.modules.iter().cloned().chain(q.target_supported.then_some(second_line));
    let rules = if std::ptr::eq(data, dotc_lang::stdlib()) {
        Rules::over_stdlib(*rulings, modules)
    } else {
        Rules::new(data.clone(), *rulings, modules)
    }
    .map_err(engine_error)?;
    // A trait named for the query counts only with its module on (Ch13 5.0, dotc D8), as it
    // does in a game: say so rather than price it without the trait.
    for id in q.traits.iter().chain(&q.target_traits) {
        if !rules.trait_in_force(id) {
            let module = rules.trait_def(id).and_then(|t| t.module.clone()).unwrap_or_default();
            let section = dotc_lang::rulings::module(&module).unwrap_or("Ch13");
            return Err(OddsError::Engine(format!(
                "the trait `{id}` belongs to the `{module}` module, which is off: add `--module {module}` \
                 ({section}, dotc D8)"
            )));
        }
    }
    // The stand-in target has more stands than the volley can take (two hits a stand, a screen
    // and a micro-hit aside), so none shatters it, and no more: the distributions stay short.
    let target_stands = weapon.pool(q.stands).saturating_mul(2).saturating_add(10);
    let mut input = FireInput::at(q.range, q.kind);
    input.cover = match q.cover {
        Cover::Open => CoverInput::open(),
        Cover::Light => CoverInput { class: CoverClass::Light, from: None, frontal_obstacle: true },
        Cover::Heavy => CoverInput { class: CoverClass::Heavy, from: None, frontal_obstacle: false },
    };
    if q.works {
        // Ch13 14.0: the works the ground gives, with their own save (`battlefield::works`).
        if !rules.module(dotc_lang::rulings::Module::DiggingIn.name()) {
            return Err(OddsError::Engine(
                "hasty works are dug only under the digging_in module (Ch13 14.0): add `--module digging_in`"
                    .to_string(),
            ));
        }
        let id = crate::battlefield::works::works_for(input.cover.class);
        input.cover = CoverInput::of(crate::battlefield::works::upgraded(input.cover.class), id, true);
    }
    input.smoke = q.smoke;
    input.through_screen = q.screen;
    input.enfilade = q.enfilade;
    input.concentrated = q.concentrated;
    input.pivoted = q.pivoted;
    input.squall = q.squall;
    Ok(Checked { rules, arm, target_stands, input })
}

/// The stand-in table every query shares before its own flags are set: turn 1, a Blue and a Red
/// side with a brigade each, the firer (a regular unit in line) in Blue's and the target (a
/// Fresh regular infantry regiment with rifled muskets) in Red's. [`set_query`] gives it the
/// query's firer, target and brigade state.
fn stand_in_table() -> (GameState, UnitId, UnitId) {
    let mut state = GameState { turn: 1, ..GameState::default() };
    let (blue, red) = (state.add_side("Blue"), state.add_side("Red"));
    let (blue_brigade, red_brigade) =
        (state.add_brigade("Firer's brigade", blue), state.add_brigade("Target's brigade", red));
    let firer = Unit::new("Firer", blue, Arm::Infantry, 0, "regular", "", "line");
    let target = Unit::new("Target", red, Arm::Infantry, 0, "regular", "rifled_musket", "");
    let firer = state.add_unit(firer, Some(blue_brigade));
    let target = state.add_unit(target, Some(red_brigade));
    (state, firer, target)
}

/// Set on a stand-in table ([`stand_in_table`]) everything a query decides, whatever an earlier
/// query set: the firer's arm, stands, weapon, markers and traits and its brigade's state (Hesitant
/// or Fresh), the target's stands, formation, traits and screen, and each brigade's starting
/// stands as [`GameState::add_unit`] counts them (RULE-07-2.2). Strings are copied into the
/// buffers already there.
fn set_query(state: &mut GameState, firer: UnitId, target: UnitId, q: &FireQuery, checked: &Checked) {
    if let Some(f) = state.units.get_mut(firer.0) {
        f.arm = checked.arm.clone();
        f.starting_stands = q.stands;
        f.stands = q.stands;
        f.weapon.clone_from(&q.weapon);
        f.markers.disorder = q.disordered;
        f.markers.low_ammo = q.low_ammo;
        f.traits.clone_from(&q.traits);
    }
    if let Some(t) = state.units.get_mut(target.0) {
        t.starting_stands = checked.target_stands;
        t.stands = checked.target_stands;
        t.formation.clear();
        t.formation.push_str(q.target.formation_id());
        t.traits.clone_from(&q.target_traits);
        t.arm = if q.target == TargetFormation::Battery {
            Arm::Battery { limbered: false }
        } else {
            Arm::Infantry
        };
        t.screen = q.target_screened.then(Screen::default);
        t.supported = q.target_supported;
    }
    for unit in [firer, target] {
        let Some(u) = state.units.get(unit.0) else { continue };
        let (brigade, clock) = (u.brigade, u.clock_stands());
        if let Some(b) = brigade.and_then(|b| state.brigades.get_mut(b.0)) {
            b.starting_stands = clock;
            if unit == firer {
                b.status = if q.hesitant {
                    crate::engine::events::BrigadeStatus::Hesitant
                } else {
                    crate::engine::events::BrigadeStatus::Fresh
                };
            }
        }
    }
}

/// The game state a [`FireQuery`] describes: the firer and the target as its flags say, and the
/// facts of the shot. The engine plans the volley from it.
pub(crate) fn query_table(
    q: &FireQuery,
    data: &RuleData,
    rulings: &Rulings,
) -> Result<(Rules, GameState, UnitId, UnitId, FireInput), OddsError> {
    let checked = check_query(q, data, rulings)?;
    let (mut state, firer, target) = stand_in_table();
    set_query(&mut state, firer, target, q, &checked);
    Ok((checked.rules, state, firer, target, checked.input))
}

thread_local! {
    /// The last stand-in table of this thread, kept so the next query reuses its allocations.
    static STAND_IN: std::cell::RefCell<Option<(GameState, UnitId, UnitId)>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f` on the table a query describes, as [`query_table`] makes it, but on this thread's
/// kept stand-in table ([`STAND_IN`]) with the query's flags set ([`set_query`]), so that a
/// query allocates no table of its own. `f` reads the table and cannot change it.
fn with_query_table<T>(
    q: &FireQuery,
    data: &RuleData,
    rulings: &Rulings,
    f: impl FnOnce(&Rules, &GameState, UnitId, UnitId, &FireInput) -> Result<T, OddsError>,
) -> Result<T, OddsError> {
    let checked = check_query(q, data, rulings)?;
    // Taken out while in use, so a query inside `f` would build its own.
    let (mut state, firer, target) = STAND_IN.with_borrow_mut(Option::take).unwrap_or_else(stand_in_table);
    set_query(&mut state, firer, target, q, &checked);
    let out = f(&checked.rules, &state, firer, target, &checked.input);
    STAND_IN.with_borrow_mut(|kept| *kept = Some((state, firer, target)));
    out
}

pub(crate) fn engine_error(e: EngineError) -> OddsError {
    match e {
        EngineError::MissingRuleData(what) => OddsError::MissingRuleData(what),
        other => OddsError::Engine(other.to_string()),
    }
}

/// The engine's plan of the volley a query describes.
pub fn query_plan(q: &FireQuery, data: &RuleData, rulings: &Rulings) -> Result<VolleyPlan, OddsError> {
    with_query_table(q, data, rulings, |rules, state, firer, target, input| {
        plan_volley(rules, state, firer, target, input).map_err(engine_error)
    })
}

/// The chance one die scores at least `target` (a natural 6 always passes under G1 clamping,
/// because the target is then at most 6).
pub(crate) fn p_at_least(target: i32) -> f64 {
    f64::from((7 - target).clamp(0, 6)) / 6.0
}

/// P(k successes) for k = 0..=n, by convolving one die at a time.
pub(crate) fn binomial(n: u32, p: f64) -> Vec<f64> {
    let mut dist = Vec::with_capacity(n as usize + 1);
    dist.push(1.0);
    for _ in 0..n {
        binomial_step(&mut dist, p);
    }
    dist
}

/// One more die of chance `p` added to `dist` in place: P(k successes) of one die more,
/// `dist[k - 1] * p + dist[k] * (1 - p)`. `binomial(n)` is `n` of these steps from `[1.0]`, so
/// a caller that walks the steps meets every `binomial(k)`, k <= n, with the same bits.
#[inline]
fn binomial_step(dist: &mut Vec<f64>, p: f64) {
    dist.push(0.0);
    for k in (1..dist.len()).rev() {
        dist[k] = dist[k - 1] * p + dist[k] * (1.0 - p);
    }
    dist[0] *= 1.0 - p;
}

pub(crate) fn mean(dist: &[f64]) -> f64 {
    dist.iter().enumerate().map(|(k, w)| k as f64 * w).sum()
}

/// The exact odds of a volley.
pub fn fire_odds(q: &FireQuery, data: &RuleData, rulings: &Rulings) -> Result<FireOdds, OddsError> {
    with_query_table(q, data, rulings, |rules, state, firer, target, input| {
        let plan = plan_volley(rules, state, firer, target, input).map_err(engine_error)?;
        // The engine's casualty steps for this target, remembered per thread: queries whose
        // target side of the table is the same share one table.
        let casualties = remembered_casualty_table(rules, state, &plan).map_err(engine_error)?;
        Ok(plan_odds(&plan, &casualties))
    })
}

/// The joint chance of `h` hits and `s` natural 6s, as [`hits_and_sixes`] gives it: row `h`,
/// column `s` (`s` counted up to the cap, the last column "the cap or more").
pub(crate) struct HitsAndSixes {
    columns: usize,
    cells: Vec<f64>,
}

impl HitsAndSixes {
    /// The rows, `h` = 0..=dice, each P(h hits and s natural 6s) for s = 0..=cap.
    pub(crate) fn rows(&self) -> std::slice::Chunks<'_, f64> {
        self.cells.chunks(self.columns)
    }
}

/// The joint chance of `h` hits and `s` natural 6s (`s` counted up to `cap`: column `cap` is
/// "`cap` or more"), die by die: each face decides whether the die hits (at least the to-hit
/// number) and whether it is a natural 6; missed dice are re-rolled as the plan allows
/// (Sharpshooters, Ch16 9.0), a re-roll that finds no missed die not taken. Two flat buffers
/// take turns, one round of dice at a time.
pub(crate) fn hits_and_sixes(plan: &VolleyPlan, cap: usize) -> HitsAndSixes {
    let mut cells = Vec::new();
    joint_hits_and_sixes(plan, cap, &mut cells, &mut Vec::new());
    HitsAndSixes { columns: cap + 1, cells }
}

/// [`hits_and_sixes`] into `dist`, row by row, with `next` the second buffer.
fn joint_hits_and_sixes(plan: &VolleyPlan, cap: usize, dist: &mut Vec<f64>, next: &mut Vec<f64>) {
    let n = plan.dice as usize;
    let columns = cap + 1;
    // The chance of each kind of face: (hit, natural 6), counted over the six faces at once so
    // a certain outcome sums to exactly 1. At most three kinds: a miss, a hit that is not a 6,
    // a 6.
    let mut kinds = [(false, false, 0.0); 3];
    let mut count = 0;
    for f in 1..=6u8 {
        let kind = (i32::from(f) >= plan.to_hit, f == 6);
        match kinds[..count].iter_mut().find(|k| (k.0, k.1) == kind) {
            Some(k) => k.2 += 1.0,
            None => {
                kinds[count] = (kind.0, kind.1, 1.0);
                count += 1;
            }
        }
    }
    let kinds = &mut kinds[..count];
    for k in kinds.iter_mut() {
        k.2 /= 6.0;
    }
    dist.clear();
    dist.resize((n + 1) * columns, 0.0);
    next.clear();
    next.resize((n + 1) * columns, 0.0);
    dist[0] = 1.0;
    let rounds = (0..n).map(|rolled| (rolled, false)).chain((0..plan.rerolls).map(|_| (n, true)));
    for (rolled, reroll) in rounds {
        next.fill(0.0);
        for h in 0..=rolled.min(n) {
            let from = &dist[h * columns..(h + 1) * columns];
            // Row h of `next` (a miss) and row h + 1 (a hit); the last row has no row above.
            let (here, above) = next[h * columns..].split_at_mut(columns);
            for (s, &w) in from.iter().enumerate() {
                if w == 0.0 {
                    continue;
                }
                // No missed die left: the re-roll is not taken.
                if reroll && h == n {
                    here[s] += w;
                    continue;
                }
                for &(hit, six, p) in kinds.iter() {
                    let to = (s + usize::from(six)).min(cap);
                    if hit {
                        above[to] += w * p;
                    } else {
                        here[to] += w * p;
                    }
                }
            }
        }
        std::mem::swap(dist, next);
    }
}

/// Buffers the pricing of a volley works in, kept per thread ([`SCRATCH`]) so a query does not
/// allocate them again. What they hold is a pure function of a few numbers of the plan, kept
/// with them: a volley with the same numbers reads it back instead of working it out again.
#[derive(Default)]
struct Scratch {
    joint: Vec<f64>,
    next: Vec<f64>,
    hits: Vec<f64>,
    by_hits: Vec<[f64; 2]>,
    /// What `by_hits` was worked out from: the dice, the to-hit number, the re-rolls and the
    /// natural 6s a Shock trigger needs.
    by_hits_of: Option<(u32, i32, u32, u32)>,
    saves: SaveRows,
    /// What `saves` was worked out from: the dice, the save's number and Steady.
    saves_of: Option<(u32, Option<i32>, bool)>,
}

impl Scratch {
    /// Forget what the buffers hold: the next volley works everything out.
    fn forget(&mut self) {
        self.by_hits_of = None;
        self.saves_of = None;
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// P(hits = h and the volley makes a Shock trigger) and P(hits = h, no trigger), by dice: each
/// die's face decides whether it hits (at least the to-hit number) and whether it is a natural
/// 6; missed dice re-rolled as the plan allows (Sharpshooters, Ch16 9.0).
fn hits_and_trigger(plan: &VolleyPlan, scratch: &mut Scratch) {
    let of = (plan.dice, plan.to_hit, plan.rerolls, plan.shock.sixes_needed);
    if scratch.by_hits_of == Some(of) {
        return;
    }
    scratch.by_hits_of = None;
    let n = plan.dice as usize;
    let needed = plan.shock.sixes_needed as usize;
    let cap = needed;
    if needed > 0 {
        joint_hits_and_sixes(plan, cap, &mut scratch.joint, &mut scratch.next);
    }
    // The hits alone, die by die as above: a certain outcome stays exactly 1. A re-roll moves
    // a missed die's chance up one hit; with no missed die (all n hit) it is not taken.
    let p = p_at_least(plan.to_hit);
    let hits = &mut scratch.hits;
    hits.clear();
    hits.push(1.0);
    for _ in 0..n {
        binomial_step(hits, p);
    }
    for _ in 0..plan.rerolls {
        if n == 0 {
            break;
        }
        hits[n] += hits[n - 1] * p;
        for h in (1..n).rev() {
            hits[h] = hits[h - 1] * p + hits[h] * (1.0 - p);
        }
        hits[0] *= 1.0 - p;
    }
    scratch.by_hits.clear();
    for (h, &w) in hits.iter().enumerate() {
        let trigger: f64 = if needed == 0 { 0.0 } else { scratch.joint[h * (cap + 1) + cap].min(w) };
        scratch.by_hits.push([w - trigger, trigger]);
    }
    scratch.by_hits_of = Some(of);
}

/// The exact distribution of a planned volley: its hits, its unsaved hits and the stands its
/// fire removes, the chance of a Shock trigger and of Shock disordering the target. Each number
/// is the plan's (the to-hit number and re-rolls, the trigger, Iron Discipline and the
/// Discipline save, the canister, the cover save and a Steady re-roll) and each casualty the
/// engine's own ([`casualty_table`]: the screen's share, the micro-hit, the shatter, the
/// brigade's reaction).
pub fn plan_odds(plan: &VolleyPlan, casualties: &CasualtyTable) -> FireOdds {
    SCRATCH.with(|kept| match kept.try_borrow_mut() {
        Ok(mut scratch) => plan_odds_in(plan, casualties, &mut scratch),
        Err(_) => plan_odds_in(plan, casualties, &mut Scratch::default()),
    })
}

/// Forget what this thread keeps between queries: the casualty tables the engine worked out
/// ([`crate::engine::fire::forget_remembered_casualty_tables`]) and the distributions of the
/// last volley priced. The next query works everything out again, as the first one of a
/// process does (the stdlib's tables aside, read once per process). For benchmarks and tests.
pub fn forget_remembered() {
    crate::engine::fire::forget_remembered_casualty_tables();
    SCRATCH.with(|kept| {
        if let Ok(mut scratch) = kept.try_borrow_mut() {
            scratch.forget();
        }
    });
}

/// [`plan_odds`] in the buffers of `scratch`.
fn plan_odds_in(plan: &VolleyPlan, casualties: &CasualtyTable, scratch: &mut Scratch) -> FireOdds {
    if plan.counter_battery {
        return counter_battery_odds(plan, casualties, scratch);
    }
    let n = plan.dice as usize;
    hits_and_trigger(plan, scratch);
    let target = plan.target_state;
    keep_saves(plan, scratch);
    let (by_hits, saves) = (&scratch.by_hits, &scratch.saves);
    let mut hits = vec![0.0; n + 1];
    let mut unsaved = vec![0.0; n + 1];
    let mut stands_lost = vec![0.0; target.stands as usize + 1];
    let (mut p_shock, mut p_shock_disorder) = (0.0, 0.0);
    for (h, pair) in by_hits.iter().enumerate() {
        for (trigger, &w) in [false, true].into_iter().zip(pair.iter()) {
            if w == 0.0 {
                continue;
            }
            hits[h] += w;
            if trigger {
                p_shock += w;
            }
            // Shock (RULE-05-4.1-4.3) or the canister (Ch16 5.3): the chance it disorders.
            let disorders = shock_disorders(plan, h, trigger);
            p_shock_disorder += w * disorders;
            for (d, wd) in [(0, 1.0 - disorders), (1, disorders)] {
                if wd == 0.0 {
                    continue;
                }
                // A regiment Shock's micro-hit shattered has no hits to save (RULE-05-3.4).
                let hits_in = if casualties.gone_before_saves[d] { 0 } else { h as u32 };
                for &(left, wu) in saves.row(hits_in) {
                    let weight = w * wd * wu;
                    unsaved[left as usize] += weight;
                    let lost = casualties.stands_lost[d].get(left as usize).copied().unwrap_or(target.stands);
                    stands_lost[lost.min(target.stands) as usize] += weight;
                }
            }
        }
    }
    summed_up(plan, Distributions { hits, unsaved, stands_lost, p_shock, p_shock_disorder }, 0.0)
}

/// The distributions a volley's pricing adds up, before they are summed up as [`FireOdds`].
struct Distributions {
    hits: Vec<f64>,
    unsaved: Vec<f64>,
    stands_lost: Vec<f64>,
    p_shock: f64,
    p_shock_disorder: f64,
}

/// The odds of a volley from its distributions; `direct_stands` is the expected number of stands
/// its fire removes without a save (counter-battery 6s, Ch13 7.0), beside the unsaved hits'.
fn summed_up(plan: &VolleyPlan, d: Distributions, direct_stands: f64) -> FireOdds {
    let Distributions { hits, unsaved, mut stands_lost, p_shock, p_shock_disorder } = d;
    while stands_lost.len() > 1 && stands_lost.last() == Some(&0.0) {
        stands_lost.pop();
    }
    let expected_unsaved = mean(&unsaved);
    FireOdds {
        dice: plan.dice,
        band: plan.band.word().to_string(),
        to_hit: plan.to_hit,
        save: plan.save.needed(),
        p_hit: p_at_least(plan.to_hit),
        expected_hits: mean(&hits),
        expected_unsaved,
        expected_stands_lost: expected_unsaved / 2.0 + direct_stands,
        p_shock,
        p_shock_disorder,
        hits,
        unsaved,
        stands_lost,
    }
}

/// The cover saves' distributions for the plan's dice, save and Steady re-roll, kept in
/// `scratch` while the next volley priced has the same.
fn keep_saves(plan: &VolleyPlan, scratch: &mut Scratch) {
    let p_save = plan.save.needed().map_or(0.0, p_at_least);
    let has_save = plan.save.needed().is_some();
    let saves_of = (plan.dice, plan.save.needed(), plan.save.steady);
    if scratch.saves_of != Some(saves_of) {
        scratch.saves_of = None;
        scratch.saves.reset(plan.dice, has_save, p_save, plan.save.steady);
        scratch.saves_of = Some(saves_of);
    }
}

/// The chance that Shock (RULE-05-4.1-4.3) or a canister (Ch16 5.3) disorders the target, given
/// the volley's hits and whether it made a trigger.
fn shock_disorders(plan: &VolleyPlan, hits: usize, trigger: bool) -> f64 {
    if plan.shock.canister && hits >= 1 {
        1.0
    } else if !trigger || plan.shock.ignored_by.is_some() {
        0.0
    } else {
        match &plan.shock.save {
            Some(save) => 1.0 - save.p_pass(),
            None => 1.0,
        }
    }
}

/// [`plan_odds`] of counter-battery fire (Ch13 7.0, dotc D10): each natural 6 that hits destroys
/// a gun stand outright and is not saved against, so the distribution is over hits and natural
/// 6s together. A battery does not shatter, so the stands lost are the 6s' stands plus what the
/// engine's casualty table gives the unsaved hits, at most the battery's stands.
fn counter_battery_odds(plan: &VolleyPlan, casualties: &CasualtyTable, scratch: &mut Scratch) -> FireOdds {
    let n = plan.dice as usize;
    let joint = hits_and_sixes(plan, n);
    let target = plan.target_state;
    keep_saves(plan, scratch);
    let needed = plan.shock.sixes_needed as usize;
    let mut hits = vec![0.0; n + 1];
    let mut unsaved = vec![0.0; n + 1];
    let mut stands_lost = vec![0.0; target.stands as usize + 1];
    let (mut p_shock, mut p_shock_disorder, mut expected_direct) = (0.0, 0.0, 0.0);
    for (h, row) in joint.rows().enumerate() {
        for (s, &w) in row.iter().enumerate() {
            if w == 0.0 {
                continue;
            }
            hits[h] += w;
            let trigger = needed > 0 && s >= needed;
            if trigger {
                p_shock += w;
            }
            let disorders = shock_disorders(plan, h, trigger);
            p_shock_disorder += w * disorders;
            let direct =
                crate::engine::fire::counter_battery_sixes(plan, u32::try_from(s).unwrap_or(u32::MAX));
            expected_direct += w * f64::from(direct);
            for (d, wd) in [(0, 1.0 - disorders), (1, disorders)] {
                if wd == 0.0 {
                    continue;
                }
                let shock_lost = casualties.stands_lost[d].first().copied().unwrap_or(0);
                let gone =
                    casualties.gone_before_saves[d] || shock_lost.saturating_add(direct) >= target.stands;
                let hits_in = if gone { 0 } else { u32::try_from(h).unwrap_or(0).saturating_sub(direct) };
                for &(left, wu) in scratch.saves.row(hits_in) {
                    let weight = w * wd * wu;
                    unsaved[left as usize] += weight;
                    let by_hits =
                        casualties.stands_lost[d].get(left as usize).copied().unwrap_or(target.stands);
                    stands_lost[by_hits.saturating_add(direct).min(target.stands) as usize] += weight;
                }
            }
        }
    }
    summed_up(plan, Distributions { hits, unsaved, stands_lost, p_shock, p_shock_disorder }, expected_direct)
}

/// P(k hits left unsaved) of `hits` cover saves at `p_save` each, with a Steady re-roll of one
/// failed save (Ch16 9.0, RULINGS C27).
pub(crate) fn unsaved_after_saves(hits: u32, has_save: bool, p_save: f64, steady: bool) -> Vec<(u32, f64)> {
    if hits == 0 || !has_save {
        return vec![(hits, 1.0)];
    }
    let mut out = Vec::with_capacity(hits as usize + 1);
    saves_left(hits, &binomial(hits, p_save), p_save, steady, &mut out);
    out
}

/// The hits left unsaved when `saved[k]` is the chance that `k` of `hits` cover saves pass, a
/// Steady unit rolling one failed save again (Ch16 9.0, RULINGS C27): appended to `out` as
/// (hits left, chance) by count, the impossible counts left out.
fn saves_left(hits: u32, saved: &[f64], p_save: f64, steady: bool, out: &mut Vec<(u32, f64)>) {
    let start = out.len();
    out.extend((0..=hits).map(|k| (k, 0.0)));
    let row = &mut out[start..];
    for (k, &w) in saved.iter().enumerate() {
        let left = hits as usize - k;
        if steady && left > 0 {
            row[left - 1].1 += w * p_save;
            row[left].1 += w * (1.0 - p_save);
        } else {
            row[left].1 += w;
        }
    }
    let mut kept = start;
    for i in start..out.len() {
        if out[i].1 > 0.0 {
            out[kept] = out[i];
            kept += 1;
        }
    }
    out.truncate(kept);
}

/// [`unsaved_after_saves`] for every count of hits from 0 to `most`, worked out once for a
/// volley: the binomial of the saves grows one die at a time ([`binomial_step`]), so each row
/// has the bits the function gives for its count.
#[derive(Default)]
pub(crate) struct SaveRows {
    /// Where each count's row starts in `cells`, and one past the last row's end.
    starts: Vec<usize>,
    cells: Vec<(u32, f64)>,
    /// P(k saves pass), grown one hit at a time.
    saved: Vec<f64>,
}

impl SaveRows {
    #[cfg(test)]
    pub(crate) fn new(most: u32, has_save: bool, p_save: f64, steady: bool) -> SaveRows {
        let mut rows = SaveRows::default();
        rows.reset(most, has_save, p_save, steady);
        rows
    }

    /// The rows of `most`, `has_save`, `p_save` and `steady`, in the buffers already here.
    pub(crate) fn reset(&mut self, most: u32, has_save: bool, p_save: f64, steady: bool) {
        let SaveRows { starts, cells, saved } = self;
        starts.clear();
        cells.clear();
        saved.clear();
        saved.push(1.0);
        for hits in 0..=most {
            starts.push(cells.len());
            if hits == 0 || !has_save {
                cells.push((hits, 1.0));
            } else {
                binomial_step(saved, p_save);
                saves_left(hits, saved, p_save, steady, cells);
            }
        }
        starts.push(cells.len());
    }

    /// P(k hits left unsaved) of `hits` cover saves, as [`unsaved_after_saves`] gives it.
    pub(crate) fn row(&self, hits: u32) -> &[(u32, f64)] {
        let h = hits as usize;
        &self.cells[self.starts[h]..self.starts[h + 1]]
    }
}

/// A simulated mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Estimate {
    pub mean: f64,
    pub std_error: f64,
}

impl Estimate {
    pub(crate) fn from_sums(n: u64, sum: f64, sum_sq: f64) -> Estimate {
        let n = n as f64;
        let mean = sum / n;
        let var = if n > 1.0 { ((sum_sq - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        Estimate { mean, std_error: (var / n).sqrt() }
    }
}

/// Monte Carlo estimates of a volley, for checking [`fire_odds`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FireEstimate {
    pub volleys: u64,
    pub seed: u64,
    pub expected_hits: Estimate,
    /// Unsaved hits / 2 per volley, the same convention as [`FireOdds::expected_stands_lost`].
    pub expected_stands_lost: Estimate,
    pub p_shock: Estimate,
}

/// The seed's d6 stream as a dice source that keeps no record (a simulation rolls millions of
/// dice).
pub(crate) struct StreamDice(pub(crate) D6Stream);

impl DiceSource for StreamDice {
    fn roll(&mut self, _purpose: Purpose, count: usize) -> Result<Vec<u8>, DiceError> {
        Ok((0..count).map(|_| self.0.next_d6()).collect())
    }

    fn consumed(&self) -> &[Roll] {
        &[]
    }
}

/// Resolve `n` volleys with the engine itself, on the seed's d6 stream ([`D6Stream`], the
/// stream of [`crate::dice::SeededDice`]), and estimate the expected hits, stands lost and the
/// chance of a Shock trigger: an independent check of [`fire_odds`].
pub fn fire_monte_carlo(
    q: &FireQuery,
    data: &RuleData,
    rulings: &Rulings,
    n: u64,
    seed: u64,
) -> Result<FireEstimate, OddsError> {
    let (rules, state, firer, target, input) = query_table(q, data, rulings)?;
    let plan = plan_volley(&rules, &state, firer, target, &input).map_err(engine_error)?;
    let mut dice = StreamDice(D6Stream::new(seed));
    let (mut hits_sum, mut hits_sq, mut lost_sum, mut lost_sq, mut shocks) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for _ in 0..n {
        let mut table = state.clone();
        let report = resolve_plan(&rules, &mut table, &plan, &mut dice).map_err(engine_error)?;
        let h = f64::from(report.hits);
        // Counter-battery fire's 6s are stands destroyed outright (Ch13 7.0, dotc D10).
        let direct = crate::engine::fire::counter_battery_sixes(&plan, report.sixes);
        let lost = f64::from(report.unsaved) / 2.0 + f64::from(direct);
        hits_sum += h;
        hits_sq += h * h;
        lost_sum += lost;
        lost_sq += lost * lost;
        if report.shock_trigger {
            shocks += 1.0;
        }
    }
    Ok(FireEstimate {
        volleys: n,
        seed,
        expected_hits: Estimate::from_sums(n, hits_sum, hits_sq),
        expected_stands_lost: Estimate::from_sums(n, lost_sum, lost_sq),
        p_shock: Estimate::from_sums(n, shocks, shocks),
    })
}

pub mod assault;
pub mod assault_plan;
pub mod explain;
pub mod melee;

#[cfg(test)]
mod memo_tests;
#[cfg(test)]
mod plan_tests;
#[cfg(test)]
mod tests;
