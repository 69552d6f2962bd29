//! Replay of a logged game: the turn engine behind `dotc replay`, `dotc audit` and `dotc luck`.
//!
//! [`replay`] takes a game log's [`Analysis`] (with its scenario loaded) and plays the log through
//! the rules engine: the scenario's [`Battlefield`], every unit's [`Body`], the starting state and
//! the [`Rules`] of [`crate::engine::setup`], then each turn (RULINGS G7: one side's active
//! sequence) and phase in order (Ch16 1.0). Each action is played by the part of the replay its
//! verb belongs to (`command`, `maneuver`, `fire`, `assault`, `status`; every verb of the language
//! has one), as an engine call fed with the line's own dice ([`LogDice`]); what the engine reports
//! is kept as events, and every place where the log and the rules part ways is a [`Finding`] at
//! the action's span, citing the rule: a claim the dice do not give, a missing die, an illegal
//! order, an illegal move. A failed action changes nothing (the engine is transactional) and the
//! replay goes on without it; a stated result the rules do not give is reported, then followed
//! ([`Level::Followed`]), so one mistake is reported once. At each turn's end the smoke clears as
//! the weather and RULINGS C17 say, a Broken brigade's retreat is checked (Ch16 8.2) and the
//! brigades' states are checked (RULINGS C12).
//!
//! Pure and deterministic: the same log gives the same bytes. A seed ([`ReplayOptions::seed`])
//! fills only the rolls a line left out, and [`completed_log`] writes them into the log.

mod assault;
mod bidding;
mod blinds;
mod claims;
mod command;
mod complete;
mod fall_back;
mod fire;
pub mod frames;
mod holders;
mod log_dice;
mod maneuver;
mod moment;
mod narrative;
mod pursuit;
pub mod resume;
mod scripted;
mod status;
pub mod story;
pub mod streamed;
mod view;
mod wave;
mod written;

use std::collections::BTreeMap;
use std::sync::Arc;

use dotc_lang::Analysis;
use dotc_lang::ast::{self, Action, Arg, PhaseKind, Span};
use dotc_lang::library::RuleData;
use dotc_lang::rulings::Module;
use dotc_lang::verbs::{AssaultStep, AssaultVerb, CommandVerb, FireVerb, ManeuverVerb, StatusVerb, Verb};
use serde::Serialize;

use crate::battlefield::{self, Battlefield, Body, Move, MoveKind, Mover, Pose, SightQuery, Smoke};
use crate::campaign::order::OrderOfBattle;
use crate::dice::{DiceError, Purpose, RecordedDice, SeededDice, d3};
use crate::engine::assault::{AssaultInput, AssaultResult, resolve_assault};
use crate::engine::fire::{FireInput, FireKind, resolve_volley};
use crate::engine::melee::MeleeInput;
use crate::engine::setup::Setup;
use crate::engine::state::{Arm, GameState, UnitId};
use crate::engine::weather::Weather;
use crate::engine::{EngineError, Event, Rules, What, morale, transact};
use crate::geometry::Layout;
use crate::rulings::{Rulings, SmokeClearing, WhatIf};

pub use claims::{written_claim, written_step_claims};
pub use complete::{completed_log, without_dice};
pub use log_dice::LogDice;
pub use moment::{Moment, MomentBrigade, MomentUnit};
pub use narrative::{Summary, Telling};
pub use scripted::GameResult;
pub use view::{BlindHides, BlindSummary};

/// How to replay. The source text is only used to give line numbers and quote the actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions<'a> {
    /// The game log's text, as analysed.
    pub source: Option<&'a str>,
    /// Fill the rolls a line recorded nothing for from this seed (a what-if replay).
    pub seed: Option<u64>,
    /// Stop after this point of the game.
    pub until: Option<Until>,
    /// Rulings to play by over (or, with a preset, instead of) what the scenario and log set: a
    /// what-if replay.
    pub what_if: Option<&'a WhatIf>,
    /// Optional triggers switched on or off over the scenario's and log's (`name`, on): a what-if.
    pub options: &'a [(String, bool)],
    /// Keep the table as it stands at the end of every turn (and where the replay stops), for maps.
    pub tables: bool,
    /// Keep the plan and the exact odds of the volleys on these 1-based lines, as the replay saw
    /// them (`dotc odds --at`, the language server's hover). Empty: none.
    pub probe: &'a [usize],
    /// Stop as soon as this is set (checked before each action): the language server sets it
    /// when the text a replay is auditing has changed, so a stale audit stops at once instead
    /// of running to the end of a long log ([`Replay::cancelled`]).
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
    /// Keep only what an audit reports, the findings and the summary: each turn's events and
    /// narrative steps are let go when the next turn starts (issue 16: the whole game's events,
    /// a sixth of a long log's replay in page faults and copies, were kept for no reader). The
    /// rules still read the turn's own events as they are played.
    pub findings_only: bool,
    /// Write the narrative as the game is played ([`Replay::narrative`] then returns it) and let
    /// each turn's events and steps go once the turn after it has been played too, by when the
    /// findings about its actions are in (issue 16: a long log's replay held every event until
    /// the end only to narrate them). The replay keeps no events: for `dotc replay`'s text.
    pub narrate: bool,
    /// How the narrative tells the game: every event with its rule (the default), or the
    /// story `dotc replay` prints (issue 21).
    pub telling: Telling,
    /// The order of battle a campaign's roster gives the battle (Ch14 1.0, dotc D42): the game
    /// is set up from the scenario as it rewrites it ([`OrderOfBattle::apply`]). None: the
    /// scenario's own.
    pub order_of_battle: Option<&'a OrderOfBattle>,
    /// Keep the game as it stands where the log ends ([`Replay::moment`]): what `dotc play`
    /// shows and plays on from (issue 20).
    pub moment: bool,
    /// Keep the forced moves the log owes and did not make ([`Replay::owed`]): what `dotc
    /// playtest` writes in. Off, none are kept (a resumed replay keeps none).
    pub owed: bool,
    /// Keep the game step by step ([`Replay::frames`]): the table and every unit's state after
    /// each action and turn's end, for `dotc replay --html` (issue 21). Needs the events kept:
    /// not with `narrate` or `findings_only`.
    pub frames: bool,
}

/// A volley of the log as the replay planned it, with its exact odds and what its dice gave.
#[derive(Clone, Debug, PartialEq)]
pub struct VolleyProbe {
    /// 1-based line of the action.
    pub line: usize,
    pub span: Span,
    /// Everything its dice were judged against ([`crate::engine::fire::plan_volley`]).
    pub plan: crate::engine::fire::VolleyPlan,
    /// The exact distribution of that plan ([`crate::odds::plan_odds`]).
    pub odds: crate::odds::FireOdds,
    /// What the log's dice gave: hits, unsaved hits, stands lost to the fire; None when the
    /// volley could not be resolved (a missing die).
    pub outcome: Option<(u32, u32, u32)>,
    /// The claim the rules give for those dice, as the log writes it after `=>` (`hits 4,
    /// saved 2, lost 1`): None when the volley could not be resolved, and for a closing volley
    /// (issue 20: the editor's action that writes a `fire` line's result).
    pub claim: Option<String>,
}

/// An assault of the log as the replay planned it, with the exact odds of its whole course
/// ([`crate::odds::assault_plan::assault_plan_odds`]) and how it ended.
#[derive(Clone, Debug, PartialEq)]
pub struct AssaultProbe {
    /// 1-based line of the `assault` action.
    pub line: usize,
    pub span: Span,
    pub charger: String,
    pub target: String,
    /// The odds, or why they could not be found (the declaration refused, too many dice).
    pub odds: Result<crate::odds::assault_plan::PlannedAssaultOdds, String>,
    /// The closing volley's plan, when the defender fires one.
    pub volley: Option<crate::engine::fire::VolleyPlan>,
    /// How the log's dice ended it; None when it could not be resolved.
    pub result: Option<crate::engine::assault::AssaultResult>,
}

/// The table at one moment of a replay: where every unit stands and how it is, for a map.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub turn: u32,
    /// The last phase played (`Status` at a turn's end).
    pub phase: PhaseKind,
    pub units: Vec<TableUnit>,
    /// Each leader and where he stands, if on the table.
    pub leaders: Vec<(String, Option<(f64, f64)>)>,
    /// The hasty works dug so far (module digging_in, Ch13 14.0).
    pub works: Vec<crate::battlefield::HastyWorks>,
    /// The blinds of Hidden Deployment, each in full (Ch13 4.0).
    pub blinds: Vec<BlindSummary>,
}

impl Table {
    /// "turn 3" at a turn's end, "turn 3 fire" after a phase.
    pub fn moment(&self) -> String {
        match self.phase {
            PhaseKind::Status => format!("End of turn {}", self.turn),
            phase => format!("Turn {}, after the {} phase", self.turn, phase.word()),
        }
    }
}

/// One unit of a [`Table`].
#[derive(Clone, Debug, PartialEq)]
pub struct TableUnit {
    pub name: String,
    /// Its stands on the table; None when off it (not yet arrived, gone, or removed).
    pub body: Option<Body>,
    /// Marker ids: `disorder`, `gunsmoke`, `low_ammo`, `clean_barrels`.
    pub markers: Vec<&'static str>,
}

/// A point of the game to stop at: `turn 3` (the end of turn 3, its status phase done) or
/// `turn 3 fire` (the end of turn 3's fire phase).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Until {
    pub turn: u32,
    pub phase: Option<PhaseKind>,
}

impl std::fmt::Display for Until {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.phase {
            Some(phase) => write!(f, "turn {} {}", self.turn, phase.word()),
            None => write!(f, "turn {}", self.turn),
        }
    }
}

impl std::str::FromStr for Until {
    type Err = String;

    fn from_str(s: &str) -> Result<Until, String> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let (turn, phase) = match words.as_slice() {
            ["turn", n] => (n, None),
            ["turn", n, phase] => (n, Some(*phase)),
            [n] => (n, None),
            [n, phase] => (n, Some(*phase)),
            _ => {
                return Err(format!(
                    "`{s}` is not a point of the game; write e.g. `turn 3` or `turn 3 fire`"
                ));
            }
        };
        let turn = turn.parse().map_err(|_| format!("`{turn}` is not a turn number"))?;
        let phase = match phase {
            None => None,
            Some(word) => Some(PhaseKind::from_word(word).ok_or_else(|| {
                format!("`{word}` is not a phase; the phases are command, maneuver, fire, melee and status")
            })?),
        };
        Ok(Until { turn, phase })
    }
}

/// Rolls a seeded replay supplied for one action: where to write them into the log.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Filled {
    /// The span of the action (or assault step) the dice belong to.
    pub span: Span,
    pub rolls: Vec<(String, Vec<u8>)>,
}

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// The log and the rules disagree, or the log breaks a rule.
    Error,
    /// Something doubtful: dice left over, a redundant order.
    Warning,
    /// Something the replay could not judge (a verb not replayed yet).
    Note,
    /// The replay goes on from the log's stated result rather than the rules' (see [`Follow`]).
    Followed,
}

/// One place where the log and the rules part ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub span: Span,
    pub level: Level,
    pub message: String,
    /// The RULE id, Ch16 section or RULINGS id.
    pub rule: String,
    /// For a scenario script that failed: the place in the scenario file (`span` is where in the
    /// log it ran).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_scenario: Option<Span>,
}

/// One engine event, with where in the log it happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayEvent {
    pub turn: u32,
    /// The side whose turn it is, shared by every event of the turn (issue 16: one string a
    /// turn, not one an event).
    #[serde(serialize_with = "side_text")]
    pub side: Arc<str>,
    pub phase: PhaseKind,
    /// 1-based line of the action (0 when no source was given).
    pub line: usize,
    pub span: Span,
    pub event: Event,
}

/// A side as text, as a `String` was (serde serialises an `Arc` only with its `rc` feature).
fn side_text<S: serde::Serializer>(side: &Arc<str>, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(side)
}

/// A replayed game: what happened, what disagrees, and how the game stands at the end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    pub events: Vec<ReplayEvent>,
    pub findings: Vec<Finding>,
    pub summary: Summary,
    /// The rolls a seed filled in, by action (empty without `seed`).
    pub filled: Vec<Filled>,
    /// The table at the end of each turn and where the replay stopped (with `tables`).
    #[serde(skip)]
    pub tables: Vec<Table>,
    /// Where the replay stopped early (`until`), if it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Until>,
    /// The volleys on the lines asked for ([`ReplayOptions::probe`]).
    #[serde(skip)]
    pub probes: Vec<VolleyProbe>,
    /// The assaults on the lines asked for ([`ReplayOptions::probe`]).
    #[serde(skip)]
    pub assault_probes: Vec<AssaultProbe>,
    /// The narrative's outline: each action in order, with the text the log wrote.
    #[serde(skip)]
    steps: Vec<Step>,
    /// The replay was stopped by [`ReplayOptions::cancel`]: what it holds is partial.
    #[serde(skip)]
    pub cancelled: bool,
    /// The blinds of Hidden Deployment and what each hides (Ch13 4.0), for a side's view of the
    /// game ([`Replay::as_seen_by`]).
    #[serde(skip)]
    sight: view::Sight,
    /// The side whose view this is ([`Replay::as_seen_by`]); None: the umpire's, everything.
    #[serde(skip)]
    pub seen_by: Option<String>,
    /// The narrative, written as the game was played ([`ReplayOptions::narrate`]).
    #[serde(skip)]
    narrated: Option<String>,
    /// How [`Replay::narrative`] tells the game ([`ReplayOptions::telling`]).
    #[serde(skip)]
    pub telling: Telling,
    /// The game where the log ends ([`ReplayOptions::moment`]).
    #[serde(skip)]
    pub moment: Option<Box<Moment>>,
    /// The game step by step ([`ReplayOptions::frames`]); empty unless asked for.
    #[serde(skip)]
    pub frames: Vec<frames::Frame>,
    /// The forced moves the rules required and the log did not make, as the rules would make
    /// them: what `dotc playtest` writes in for a seed whose dice the log's orders did not foresee
    /// ([`ReplayOptions::owed`]; empty unless asked for).
    #[serde(skip)]
    pub owed: Vec<OwedMove>,
}

/// A move the rules force and the log did not record (each is also an error finding): a melee
/// loser's retreat straight back (Ch16 7.4), a Broken brigade's unit's retreat toward its table
/// edge (Ch16 8.2, RULE-07-2.4).
#[derive(Clone, Debug, PartialEq)]
pub struct OwedMove {
    pub unit: String,
    /// Where the move ends, the unit keeping its facing.
    pub to: (f64, f64),
    /// The log's turn number the move belongs to.
    pub turn: u32,
    /// The phase the log writes it in: `melee` for a melee's retreat, `maneuver` for a Broken
    /// brigade's.
    pub phase: PhaseKind,
}

/// One heading or action of the narrative, in log order.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Turn {
        number: u32,
        side: String,
    },
    Phase(PhaseKind),
    Action {
        line: usize,
        span: Span,
        text: String,
        /// The sides (by index) whose secrets the action names: a unit, brigade or brigadier
        /// still hidden under one of their blinds (Ch13 4.0). Another side's view leaves it out.
        secret_of: Vec<usize>,
    },
    /// The end of the turn whose span this is.
    EndOfTurn(Span),
    /// The blind of this name was revealed by the action at `span` (Ch13 4.0): from there on,
    /// every side sees what it hid.
    Reveal {
        blind: String,
        span: Span,
    },
}

impl Replay {
    /// Findings that are not mere notes.
    pub fn has_problems(&self) -> bool {
        self.findings.iter().any(|f| matches!(f.level, Level::Error | Level::Warning))
    }
}

/// Replay a game log. Never panics; a log without a usable scenario gives one finding.
pub fn replay(analysis: &Analysis, options: &ReplayOptions<'_>) -> Replay {
    let mut run = match Run::start(analysis, options) {
        Ok(run) => run,
        Err(done) => return *done,
    };
    for turn in &analysis.document.turns {
        match run.play_turn(turn, options) {
            Flow::Next => {}
            Flow::Stop => break,
            Flow::Cancelled => return run.cancelled(),
        }
    }
    run.end()
}

/// The brigadiers of both sides who roll staff pips in a log's first turn (Ch16 2.1, RULINGS
/// G8), in the scenario's order, as the replay judges who must: each brigade on the table when
/// the game begins, with its brigadier there from the start. What `dotc new game` writes in its
/// first command phase. `analysis` is a game log's (its header names the scenario); empty when
/// the game cannot be set up.
pub fn first_turn_pips(analysis: &Analysis) -> Vec<String> {
    let Ok(run) = Run::start(analysis, &ReplayOptions::default()) else { return Vec::new() };
    let game = &run.game;
    let on_table = game.brigades_on_table();
    game.state
        .brigades
        .iter()
        .enumerate()
        .filter(|(i, _)| on_table.contains(i))
        .filter_map(|(_, brigade)| {
            let leader = game.state.leader(brigade.brigadier?)?;
            (!leader.removed && leader.from_turn <= 1).then(|| leader.name.clone())
        })
        .collect()
}

/// What the driver does after a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    /// Play the next turn.
    Next,
    /// The game ends here (`until`, or a script ended it).
    Stop,
    /// [`ReplayOptions::cancel`] was set: the replay stops with what it has.
    Cancelled,
}

/// A replay under way: the driver's state between turns. [`replay`] plays every turn of a log
/// through one; a [`resume::Resumable`] keeps one to play again from a turn of its choosing.
struct Run<'a> {
    r: Replayer<'a>,
    game: Game,
    scripted: scripted::Scripted,
    /// The sides whose pips the log keeps (a fact of the whole log: [`Game::sides_keeping_pips`]).
    keeping_pips: std::collections::BTreeSet<crate::engine::state::SideId>,
    /// The span of the last turn begun (the header's before the first).
    last_turn: Span,
    tables: Vec<Table>,
    /// Actions played, for a caller that counts the work ([`resume`]).
    actions: usize,
    /// The outputs a resumed replay's replayer starts after: it holds only its own
    /// (`resume.rs`); zero for a replay from the start.
    base: resume::Counts,
    /// Who must take turn 1 when command bidding decides it (Ch13 1.0).
    initiative: Option<bidding::Initiative>,
    /// The game step by step, when asked for ([`ReplayOptions::frames`]).
    frames: Option<frames::Recorder>,
}

impl<'a> Run<'a> {
    /// Set the game up from its scenario and the log's header; a replay that cannot start is
    /// returned whole (with its one finding).
    fn start(analysis: &Analysis, options: &ReplayOptions<'a>) -> Result<Run<'a>, Box<Replay>> {
        Run::start_fought(analysis, options, options.order_of_battle)
    }

    /// [`Run::start`] with the order of battle given apart from the options: it is read only
    /// here, so a run kept beyond it (`resume::Resumable`) need not borrow it.
    fn start_fought(
        analysis: &Analysis,
        options: &ReplayOptions<'a>,
        order_of_battle: Option<&OrderOfBattle>,
    ) -> Result<Run<'a>, Box<Replay>> {
        let mut r = Replayer {
            source: options.source,
            lines: options.source.map(dotc_lang::model::LineIndex::new),
            turn: 0,
            side: Arc::from(""),
            phase: PhaseKind::Command,
            span: Span::default(),
            line: 0,
            events: Vec::new(),
            findings: Vec::new(),
            steps: Vec::new(),
            filled: Vec::new(),
            owed: options.owed.then(Vec::new),
            stopped: None,
            follow: Vec::new(),
            probe: options.probe,
            probes: Vec::new(),
            assault_probes: Vec::new(),
            results: claims::Results::default(),
            in_steps: false,
            findings_only: options.findings_only,
            narrated: (options.narrate && !options.findings_only).then(String::new),
            telling: options.telling,
            marks: std::collections::VecDeque::new(),
            turn_events: 0,
            sight: view::Sight::default(),
            moment: options.moment,
        };
        let game_rules = analysis.document.game.as_ref().map(|g| g.rules.as_slice()).unwrap_or(&[]);
        let header_span = analysis.document.game.as_ref().map(|g| g.span).unwrap_or_default();
        let Some(loaded) = analysis.scenario.as_deref() else {
            r.find(header_span, Level::Error, "the game's scenario could not be loaded", "");
            return Err(Box::new(r.finish(None)));
        };
        let Some(scenario) = loaded.document.scenario.as_ref() else {
            r.find(header_span, Level::Error, "the game's scenario file holds no scenario", "");
            return Err(Box::new(r.finish(None)));
        };
        let data = &loaded.rule_data;
        // A campaign's battle is fought with the roster (Ch14 1.0): every reader below sees
        // the scenario as the roster makes it.
        let fought;
        let scenario = match order_of_battle {
            Some(order) => {
                fought = order.apply(scenario, data);
                &fought
            }
            None => scenario,
        };
        let settings = dotc_lang::model::effective_rulings(scenario.rules.iter().chain(game_rules.iter()));
        let files = match options.what_if.and_then(|w| w.preset) {
            // A what-if preset stands in for the files' rulings (`Rulings::preset`).
            Some((_, preset)) => Ok(preset),
            None => Rulings::from_settings(&settings),
        };
        let in_force = files.map(|files| options.what_if.map_or(files, |w| w.apply(files)));
        let rules = in_force.ok().and_then(|rulings| {
            let modules = scenario
                .rules
                .iter()
                .chain(game_rules.iter())
                .flat_map(|b| b.modules.iter().map(|m| m.value.clone()));
            let modules = match options.what_if {
                Some(w) => w.apply_modules(modules),
                None => modules.collect(),
            };
            Rules::new(data.clone(), rulings, modules).ok()
        });
        let Some(rules) = rules else {
            r.find(header_span, Level::Error, "the rule data or rulings in force are not usable", "");
            return Err(Box::new(r.finish(None)));
        };
        r.results = claims::Results::of(&rules);
        // The modules that are on and not played whole, said once at the game header rather than
        // passed in silence (the register says how far each is played: `Module::replayed`).
        for module in rules.modules.iter().filter_map(|m| Module::from_name(m)) {
            if let Some(notice) = module.replay_notice() {
                r.find(header_span, Level::Note, notice, module.section());
            }
        }
        let mut setup = Setup::from_scenario(scenario, &rules);
        for (unit, why) in &setup.skipped {
            r.find(header_span, Level::Note, format!("{unit} is left out of the replay: {why}"), "");
        }
        // The weather (Ch13 21.0, RULE-05-5.4): the scenario's, then the log's over it. A
        // condition in force that the replay does not play whole is said at the header, as a
        // module is.
        let written: Vec<(&str, &str)> = scenario
            .rules
            .iter()
            .chain(game_rules.iter())
            .flat_map(|b| b.weather.iter())
            .map(|w| (w.aspect.value.as_str(), w.condition.value.as_str()))
            .collect();
        // dotc D18: the ground, the sky and the heat are the weather module's (Ch13 21.0), in
        // force only with it on; the wind is the core rules' (RULE-05-5.4). A condition written
        // that would change something, with the module off, is said once at the header.
        let module_on = rules.module(Module::Weather.name());
        type Settings<'a> = Vec<(&'a str, &'a str)>;
        let (settings, idle): (Settings<'_>, Settings<'_>) =
            written.iter().partition(|(a, _)| module_on || !Weather::of_the_module(a));
        // Firm ground, a clear sky and normal heat change nothing: no need to say them.
        let changes = |(_, c): &&(&str, &str)| !matches!(*c, "firm" | "clear" | "normal");
        for (aspect, condition) in idle.iter().filter(changes) {
            let message = format!(
                "weather {aspect} {condition} is written, but the weather module (Ch13 21.0) is off: it is not in force; add `module weather` to play it"
            );
            r.find(header_span, Level::Warning, message, "Ch13 21.0, dotc D18");
        }
        setup.state.weather = Weather::from_settings(settings.iter().copied());
        // Ch13 1.0: the bids, and the battlefield after Scouting.
        let (bf, bids) = bidding::start(&mut r, analysis.document.game.as_ref(), scenario, data, &rules);
        // dotc D53: the log's ruling on dead ground, over the scenario's.
        let bf = bf.with_rulings(&rules.rulings);
        let mut game = Game {
            bf,
            state: setup.state,
            bodies: BTreeMap::new(),
            leader_positions: BTreeMap::new(),
            pending: BTreeMap::new(),
            owed: Vec::new(),
            pursuits: Vec::new(),
            retreats: Vec::new(),
            seeded: options.seed.map(SeededDice::new),
            ledger: status::Ledger::default(),
            book: command::Book::from_scenario(scenario, data),
            command_ranges: BTreeMap::new(),
            rest_sight: status::RestSight::default(),
            ground_cover: Kept::default(),
            reveals: BTreeMap::new(),
            rules,
        };
        let men = scenario.men_per_stand.as_ref().map(|m| m.value);
        for side in &scenario.sides {
            for c in &side.commanders {
                if let Some(p) = &c.position {
                    game.leader_positions.insert(c.name.value.clone(), (p.value.x, p.value.y));
                }
            }
            let units = side.brigades.iter().flat_map(|b| b.units.iter()).chain(side.units.iter());
            for unit in units {
                if let (Some(id), Some(body)) = (
                    game.state.unit_named(&unit.name.value),
                    Body::from_unit(unit, data, &game.rules.tables, men),
                ) {
                    game.bodies.insert(id, body);
                }
            }
            for brigade in &side.brigades {
                for b in &brigade.brigadiers {
                    if let Some(p) = &b.position {
                        game.leader_positions.insert(b.name.value.clone(), (p.value.x, p.value.y));
                    }
                }
            }
        }
        // Ch13 1.0: Logistics' Low Ammo marker, and whose turn 1 is.
        let initiative = bidding::apply(&mut r, &mut game, bids.as_ref(), scenario);
        // Scenario scripts: compiled once for the whole replay (runtime/src/replay/scripted.rs).
        let seed =
            analysis.document.game.as_ref().and_then(|g| g.seed.as_ref()).map(|s| s.value).or(options.seed);
        let scripted = scripted::Scripted::new(
            loaded,
            scenario,
            game_rules,
            options.options,
            &game,
            seed,
            &mut r,
            header_span,
        );
        let keeping_pips = game.sides_keeping_pips(&analysis.document.turns);
        game.blinds_at_setup(&mut r, header_span); // Ch13 4.0
        r.sight = view::Sight::of(&game.state);
        game.sync_bodies();
        let frames = options.frames.then(|| frames::Recorder::start(&game, &r));
        Ok(Run {
            r,
            game,
            scripted,
            keeping_pips,
            last_turn: header_span,
            tables: Vec::new(),
            actions: 0,
            base: resume::Counts::default(),
            initiative,
            frames,
        })
    }

    /// Play one turn of the log (RULINGS G7: one side's active sequence), its phases in order
    /// (Ch16 1.0), then its end.
    fn play_turn(&mut self, turn: &ast::Turn, options: &ReplayOptions<'_>) -> Flow {
        let Run { r, game, scripted, keeping_pips, last_turn, tables, actions, initiative, frames, .. } =
            self;
        // Scenario scripts: a game a script ended plays no further turn.
        if scripted.ended() {
            let message = "the scenario's script ended the game: this turn and those after it are not played";
            r.find(turn.span, Level::Warning, message, "scenario script");
            return Flow::Stop;
        }
        *last_turn = turn.span;
        bidding::check_first_turn(r, initiative.as_ref(), turn); // Ch13 1.0
        let previous = r.turn;
        r.turn = turn.number.value;
        if r.findings_only {
            // Every mark into the events or steps is taken and let go within a turn.
            r.events.clear();
            r.steps.clear();
        } else {
            r.narrate_settled();
        }
        r.turn_events = r.events.len();
        if *r.side != *turn.side.value {
            r.side = Arc::from(turn.side.value.as_str());
        }
        r.steps.push(Step::Turn { number: r.turn, side: turn.side.value.clone() });
        game.unmade_retreats(r, previous); // Ch16 7.4: the turn before's
        game.state.start_turn(r.turn);
        // RULINGS G8, Ch16 2.1: a new Phase 1; unspent pips are lost, the one banked pip stays.
        for b in &mut game.state.brigades {
            b.pips = 0;
        }
        let commanding = game.brigades_on_table();
        // A turn an edit moved has its phases moved here (the server's resumed replay).
        let phases = turn.phases();
        if let Some(frames) = frames {
            frames.close(game, r);
        }
        let steps = r.steps.len();
        scripted.turn_start(game, r, turn, &phases); // scenario scripts
        if let Some(frames) = frames {
            frames.scripts(game, r, steps, None); // issue 21
        }
        for phase in phases.iter() {
            // A moment in a phase the log leaves out of this turn (nothing was done in it): the
            // table as the phases before it left it.
            if let Some(until) = options.until
                && until.turn == r.turn
                && until.phase.is_some_and(|p| p < phase.kind.value)
            {
                return Self::stop_in_omitted_phase(r, game, tables, until, options);
            }
            r.phase = phase.kind.value;
            r.steps.push(Step::Phase(r.phase));
            game.state.start_phase();
            game.phase_four_window(r.phase);
            if let Some(frames) = frames {
                frames.close(game, r);
            }
            let steps = r.steps.len();
            scripted.phase_start(game, r, phase); // scenario scripts
            if let Some(frames) = frames {
                frames.scripts(game, r, steps, Some(r.phase)); // issue 21
            }
            for action in &phase.actions {
                if options.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
                    return Flow::Cancelled;
                }
                *actions += 1;
                // RULE-07-1.5, RULINGS C5, G14: a fall back is recorded right after its cause.
                game.overdue_fall_backs(r, Some(action));
                // Ch13 12.0, dotc D21: so is a frenzied victor's pursuit.
                game.overdue_pursuits(r, Some(action));
                r.begin_action(action);
                if let Some(frames) = frames {
                    frames.action(game, r); // issue 21
                }
                game.mark_secrets(r, action); // Ch13 4.0
                let mark = r.events.len(); // scenario scripts
                game.action(r, action);
                game.sync_bodies();
                game.owe_fall_backs(r, mark);
                game.owe_pursuits(r, mark);
                game.owe_retreats(r, mark, action);
                scripted.after(game, r, mark); // scenario scripts
            }
            game.overdue_fall_backs(r, None);
            game.overdue_pursuits(r, None);
            game.flush_formation_changes(r);
            game.july_sun(r);
            game.holders_tether(r, phase.span);
            game.blinds_end_of_phase(r, phase.span); // Ch13 4.0
            if let Some(until) = options.until
                && until.turn == r.turn
                && until.phase == Some(r.phase)
            {
                r.stopped = Some(until);
                if options.tables {
                    tables.push(game.table(r.turn, r.phase));
                }
                if let Some(frames) = frames {
                    frames.close(game, r);
                }
                return Flow::Stop;
            }
        }
        // A moment in a phase the log leaves out after its last one, but for Phase 5, whose end
        // is the turn's end below.
        if let Some(until) = options.until
            && until.turn == r.turn
            && until.phase.is_some_and(|p| p != PhaseKind::Status)
        {
            return Self::stop_in_omitted_phase(r, game, tables, until, options);
        }
        game.unrolled_pips(r, turn, keeping_pips, &commanding);
        if let Some(frames) = frames {
            frames.close(game, r);
        }
        r.steps.push(Step::EndOfTurn(turn.span));
        r.span = turn.span;
        r.line = 0;
        let mark = r.events.len(); // scenario scripts
        game.end_of_turn(r);
        scripted.turn_end(game, r, turn, mark); // scenario scripts
        if let Some(frames) = frames {
            frames.end_of_turn(game, r, turn.span);
        }
        if options.tables {
            tables.push(game.table(r.turn, PhaseKind::Status));
        }
        if let Some(until) = options.until
            && until.turn == r.turn
            && until.phase.is_none_or(|p| p == PhaseKind::Status)
        {
            r.stopped = Some(until);
            return Flow::Stop;
        }
        Flow::Next
    }

    /// Stop at `until`, a phase this turn of the log leaves out: nothing was done in it, so the
    /// table is the one the phases before it left.
    fn stop_in_omitted_phase(
        r: &mut Replayer<'_>,
        game: &mut Game,
        tables: &mut Vec<Table>,
        until: Until,
        options: &ReplayOptions<'_>,
    ) -> Flow {
        r.stopped = Some(until);
        if options.tables {
            tables.push(game.table(r.turn, until.phase.unwrap_or(r.phase)));
        }
        Flow::Stop
    }

    /// What a cancelled replay holds.
    /// Whether every side's pips are settled: each has a `pips` line in the turns the run was
    /// started with, so no later turn can change which sides keep them (`streamed.rs`).
    fn keeps_every_side(&self) -> bool {
        self.keeping_pips.len() == self.game.state.sides.len()
    }

    fn cancelled(&mut self) -> Replay {
        let mut out = self.r.take(None);
        out.cancelled = true;
        out
    }

    /// The end of the game (its scripts' `on_game_end` and victory), and the replay: its
    /// outputs are taken, the run keeps the game as it ended.
    fn end(&mut self) -> Replay {
        let mut out = self.end_unsorted();
        out.findings.sort_by_key(|f| (f.span.start, f.span.end));
        out
    }

    /// [`Run::end`] with the findings in the order they were made.
    fn end_unsorted(&mut self) -> Replay {
        if let Some(frames) = &mut self.frames {
            frames.close(&self.game, &self.r);
        }
        let mut summary = Summary::of(&self.game.state, &self.game.rules);
        self.scripted.game_end(&mut self.game, &mut self.r, &mut summary, self.last_turn); // scenario scripts
        let mut out = self.r.take(Some(summary));
        out.tables = std::mem::take(&mut self.tables);
        out.frames = self.frames.take().map(|f| f.done).unwrap_or_default();
        out.sight.end = view::Sight::blinds_now(&self.game.state);
        if self.r.moment {
            out.moment = Some(Box::new(self.game.moment(self.game.table(self.r.turn, self.r.phase))));
        }
        out
    }
}

/// The replay's bookkeeping: where in the log it is, and what it has found.
struct Replayer<'a> {
    source: Option<&'a str>,
    /// Line starts of the source, so each action's line is a binary search, not a scan.
    lines: Option<dotc_lang::model::LineIndex>,
    turn: u32,
    /// The side of the turn being played, shared with its events.
    side: Arc<str>,
    phase: PhaseKind,
    span: Span,
    line: usize,
    events: Vec<ReplayEvent>,
    findings: Vec<Finding>,
    steps: Vec<Step>,
    filled: Vec<Filled>,
    /// Forced moves owed and not made ([`Replay::owed`]), when [`ReplayOptions::owed`] asks.
    owed: Option<Vec<OwedMove>>,
    stopped: Option<Until>,
    /// Results the log states that differ from the rules', to be followed once the action is done.
    follow: Vec<Follow>,
    /// Lines whose volleys are kept with their odds, and those kept.
    probe: &'a [usize],
    probes: Vec<VolleyProbe>,
    assault_probes: Vec<AssaultProbe>,
    /// The rule data's names of the results a claim may state (the leader casualty rows, the Low
    /// Ammunition marker), for [`claims`].
    results: claims::Results,
    /// The current action is an assault with its steps: a missing die is added on a step.
    in_steps: bool,
    /// [`ReplayOptions::findings_only`]: no narrative step is written for an action.
    findings_only: bool,
    /// The narrative so far, written as the game is played ([`ReplayOptions::narrate`]).
    narrated: Option<String>,
    /// [`ReplayOptions::telling`].
    telling: Telling,
    /// With `narrated`: where each turn not yet narrated starts in the steps, events and findings.
    marks: std::collections::VecDeque<TurnMark>,
    /// Where the current turn's events start in `events`.
    turn_events: usize,
    /// The blinds at the start and what each hides (Ch13 4.0), for [`Replay::as_seen_by`].
    sight: view::Sight,
    /// [`ReplayOptions::moment`].
    moment: bool,
}

/// Where a turn starts in the replayer's steps, events and findings.
#[derive(Clone, Copy, Debug)]
struct TurnMark {
    steps: usize,
    events: usize,
    findings: usize,
}

/// A result the log states and the rules do not give. The replay reports it, then goes on from
/// the log's result (the table as the players left it), so a mistake is reported once and later
/// lines are judged against the game that was actually played.
#[derive(Clone, Debug, PartialEq)]
enum Follow {
    /// The unit lost `claimed` stands where the rules take `rules`.
    Stands { unit: String, rules: u32, claimed: u32 },
    /// The unit is left with this micro-hit.
    Micro { unit: String, micro: u8 },
    /// The unit was disordered.
    Disorder { unit: String },
    /// The action's unit rallied (its Disorder removed) or failed to (it keeps it).
    Rally { rallied: bool },
    /// A bare number result: `pips` for the action's brigadier.
    Number { what: String, value: u32 },
}

impl<'a> Replayer<'a> {
    /// The 1-based line of a byte offset of the log (0 without the source).
    fn line_of(&self, offset: usize) -> usize {
        self.lines.as_ref().map_or(0, |lines| lines.line(offset))
    }

    /// Call after an action's dice were used and the action applied: reports dice left over and
    /// keeps the rolls a seed filled in, for `--write-completed`.
    fn dice_done(&mut self, dice: &LogDice<'_>, rule: &str) {
        self.leftover(dice.recorded(), rule);
        self.keep_filled(dice);
    }

    /// Keep the rolls a seed filled in for this action, for `--write-completed`.
    fn keep_filled(&mut self, dice: &LogDice<'_>) {
        if !dice.filled().is_empty() {
            let rolls =
                dice.filled().iter().map(|r| (r.purpose.label().to_string(), r.faces.clone())).collect();
            self.filled.push(Filled { span: self.span, rolls });
        }
    }

    /// A word the replay does not play: its effects are not applied, and the audit says so.
    fn not_replayed(&mut self, action: &Action) {
        let verb = action.verb.value.as_str();
        let rule = Verb::from_word(verb).map_or("", Verb::rule);
        self.here(Level::Note, format!("`{verb}` is not replayed yet: its effects are not applied"), rule);
    }

    fn begin_action(&mut self, action: &Action) {
        self.span = action.span;
        self.in_steps = !action.steps.is_empty();
        self.line = self.line_of(action.span.start);
        if self.findings_only {
            return;
        }
        let text = match self.source.and_then(|s| s.get(action.span.start..action.span.end)) {
            Some(text) => text.lines().next().unwrap_or("").trim().trim_end_matches('{').trim().to_string(),
            None => action.verb.value.clone(),
        };
        self.steps.push(Step::Action { line: self.line, span: action.span, text, secret_of: Vec::new() });
    }

    fn emit(&mut self, events: impl IntoIterator<Item = Event>) {
        for event in events {
            self.events.push(ReplayEvent {
                turn: self.turn,
                side: self.side.clone(),
                phase: self.phase,
                line: self.line,
                span: self.span,
                event,
            });
        }
    }

    fn find(&mut self, span: Span, level: Level, message: impl Into<String>, rule: impl Into<String>) {
        self.findings.push(Finding {
            span,
            level,
            message: message.into(),
            rule: rule.into(),
            in_scenario: None,
        });
    }

    /// The error findings at the current action so far.
    fn errors_here(&self) -> usize {
        self.findings.iter().filter(|f| f.level == Level::Error && f.span == self.span).count()
    }

    /// A finding at the current action.
    fn here(&mut self, level: Level, message: impl Into<String>, rule: impl Into<String>) {
        let span = self.span;
        self.find(span, level, message, rule);
    }

    /// An engine refusal: nothing was applied.
    fn refused(&mut self, error: &EngineError, rule: &str) {
        let (message, rule) = match error {
            // A missing die: the finding names the roll, cites its own section and shows what to
            // add to the line (issue 14: the log can be fixed from the finding alone).
            EngineError::Dice(e @ DiceError::Unrecorded(u)) => {
                let add = log_dice::how_to_add(u.purpose, u.wanted, u.available, &u.what, self.in_steps);
                (format!("{e}: {add}; the action is not applied"), u.rule.clone())
            }
            EngineError::Dice(e @ DiceError::Missing { purpose, wanted, available }) => {
                let add = log_dice::how_to_add(*purpose, *wanted, *available, "", self.in_steps);
                (format!("{e}: {add}; the action is not applied"), rule.to_string())
            }
            EngineError::Dice(e) => (format!("{e}: the action is not applied"), rule.to_string()),
            EngineError::Illegal { rule: r, .. } => {
                (format!("{error}: the action is not applied"), (*r).to_string())
            }
            other => (format!("{other}: the action is not applied"), rule.to_string()),
        };
        self.here(Level::Error, message, rule);
    }

    /// Dice the log recorded that the rules never asked for.
    fn leftover(&mut self, dice: &RecordedDice, rule: &str) {
        let left = dice.remaining();
        if left > 0 {
            self.here(
                Level::Warning,
                format!(
                    "{} dice recorded but the rules use only {}: {left} left over",
                    dice.recorded(),
                    dice.used()
                ),
                rule,
            );
        }
    }

    /// [`ReplayOptions::narrate`], at a turn's start: the turn before the last one is settled
    /// (what is found about its actions is found during it or the turn after), so its narrative
    /// is written and its steps and events let go.
    fn narrate_settled(&mut self) {
        if self.narrated.is_none() {
            return;
        }
        let now =
            TurnMark { steps: self.steps.len(), events: self.events.len(), findings: self.findings.len() };
        self.marks.push_back(now);
        if self.marks.len() < 3 {
            return;
        }
        let (Some(settled), Some(next)) = (self.marks.pop_front(), self.marks.front().copied()) else {
            return;
        };
        self.narrate_up_to(settled.findings, next.steps, next.events);
        for mark in &mut self.marks {
            mark.steps -= next.steps;
            mark.events -= next.events;
        }
    }

    /// Narrate the first `steps` steps and `events` events, with the findings made since
    /// `findings_from`, and let them go.
    fn narrate_up_to(&mut self, findings_from: usize, steps: usize, events: usize) {
        let Some(out) = self.narrated.as_mut() else {
            return;
        };
        let mut findings: Vec<&Finding> = self.findings.get(findings_from..).unwrap_or(&[]).iter().collect();
        findings.sort_by_key(|f| (f.span.start, f.span.end));
        let (steps, events) = (steps.min(self.steps.len()), events.min(self.events.len()));
        narrative::narrate(out, &self.steps[..steps], &self.events[..events], &findings, self.telling);
        self.steps.drain(..steps);
        self.events.drain(..events);
    }

    fn finish(mut self, summary: Option<Summary>) -> Replay {
        self.take(summary)
    }

    /// The replay so far, its outputs taken out of the replayer.
    fn take(&mut self, summary: Option<Summary>) -> Replay {
        if self.narrated.is_some() {
            let from = self.marks.front().map_or(0, |m| m.findings);
            self.narrate_up_to(from, self.steps.len(), self.events.len());
            self.marks.clear();
        }
        Replay {
            events: std::mem::take(&mut self.events),
            findings: std::mem::take(&mut self.findings),
            summary: summary.unwrap_or_default(),
            filled: std::mem::take(&mut self.filled),
            owed: self.owed.as_mut().map(std::mem::take).unwrap_or_default(),
            tables: Vec::new(),
            stopped: self.stopped,
            probes: std::mem::take(&mut self.probes),
            assault_probes: std::mem::take(&mut self.assault_probes),
            steps: std::mem::take(&mut self.steps),
            cancelled: false,
            sight: self.sight.clone(),
            seen_by: None,
            narrated: self.narrated.take(),
            telling: self.telling,
            moment: None,
            frames: Vec::new(),
        }
    }
}

/// The game as the replay carries it: the engine's state plus where every unit stands.
struct Game {
    rules: Rules,
    bf: Battlefield,
    state: GameState,
    bodies: BTreeMap<UnitId, Body>,
    /// Where each leader stands: the scenario's position, then his moves and his regiment's.
    leader_positions: BTreeMap<String, (f64, f64)>,
    /// Formation changes waiting for the unit's move in the same phase: old formation, old body,
    /// the action's span.
    pending: BTreeMap<UnitId, (String, Body, Span)>,
    /// Fall backs the rules imposed that the log has yet to record (RULE-07-1.5, RULINGS C5,
    /// G14; `fall_back.rs`).
    owed: Vec<fall_back::OwedFallBack>,
    /// Pursuits of frenzied melee victors the log has yet to record (Ch13 12.0, dotc D21;
    /// `pursuit.rs`).
    pursuits: Vec<pursuit::OwedPursuit>,
    /// Melee losers' retreats (Ch16 7.4) the log has yet to record this turn: the unit, the
    /// inches, the action whose melee it lost; reported when the next turn starts (`status.rs`).
    retreats: Vec<(UnitId, f64, Span)>,
    /// The seeded source of a what-if replay, for rolls the log left out.
    seeded: Option<SeededDice>,
    /// What the fire, assault and status replays remember between actions and turns (reactions,
    /// opportunity fire, melee victors, coordinated pushes, rest for reforming).
    ledger: status::Ledger,
    /// What the command and maneuver replays remember: reinforcement times, screens, horse
    /// holders, and this turn's pips, orders and moves.
    book: command::Book,
    /// Each unit's command range as [`Game::sync_bodies`] last measured it, with what it was
    /// measured from ([`command::RangeFrom`]): after an action most units and leaders stand where
    /// they stood, and their range need not be measured again (issue 16). A pure function of
    /// its key, so it is never stale, whatever was restored (`resume.rs`).
    command_ranges: BTreeMap<UnitId, (command::RangeFrom, f64)>,
    /// Whether each enemy saw each unit when its rest was last counted ([`status::RestSight`]).
    rest_sight: status::RestSight,
    /// The cover of the ground under the last few targets' bodies
    /// ([`Battlefield::ground_cover`], [`Game::ground_cover`]): a target fired at stands where it
    /// stood for the volley before, and its ground's cover need not be worked out again
    /// (issue 16). A pure function of the body, since the replay never changes the terrain, so
    /// it is never stale.
    ground_cover: Kept<Body, std::sync::Arc<[(dotc_lang::library::Cover, String)]>>,
    /// Where each blind was revealed (Ch13 4.0): the span of its `reveal` line, where its units
    /// not placed by the phase's end are reported (`blinds.rs`, dotc D28). Read only in the
    /// phase of the reveal, so a checkpoint (a turn's start) need not keep it.
    reveals: BTreeMap<String, Span>,
}

/// The last few answers of a pure function, by their key, kept behind `&self`
/// ([`Game::ground_cover`]): the newest last, the oldest dropped past `limit`. A mutex, so the
/// game stays `Sync` for the language server; a poisoned one is taken as it is, as its list is
/// only ever whole.
#[derive(Debug)]
struct Kept<K, V>(std::sync::Mutex<Vec<(K, V)>>);

impl<K, V> Default for Kept<K, V> {
    fn default() -> Self {
        Kept(std::sync::Mutex::new(Vec::new()))
    }
}

impl<K: PartialEq + Copy + std::fmt::Debug, V: Clone + PartialEq + std::fmt::Debug> Kept<K, V> {
    /// The answer for `key`: the one kept, or `make`'s, then kept. The dev profile makes it
    /// anyway and holds the one kept to it, so every replay of the tests checks the memo.
    fn get_or(&self, key: &K, limit: usize, make: impl Fn() -> V) -> V {
        let mut kept = std::mem::take(&mut *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let answer = match kept.iter().find(|(k, _)| k == key) {
            Some((_, answer)) => {
                debug_assert_eq!(*answer, make(), "the answer kept for {key:?}");
                answer.clone()
            }
            None => {
                let answer = make();
                if kept.len() >= limit.max(1) {
                    kept.remove(0);
                }
                kept.push((*key, answer.clone()));
                answer
            }
        };
        *self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = kept;
        answer
    }
}

/// The unit names an action gives, in order (`Unit` first, then `At` / `Against`).
fn unit_arg(action: &Action) -> Option<&ast::Name> {
    action.args.iter().find_map(|a| if let Arg::Unit(n) = a { Some(n) } else { None })
}

fn target_arg(action: &Action) -> Option<&ast::Name> {
    action.args.iter().find_map(|a| match a {
        Arg::At(n) | Arg::Against(n) => Some(n),
        _ => None,
    })
}

/// The action's dice lists with the purpose each serves: an unlabelled list is `unlabelled`.
fn dice_of(action: &Action, unlabelled: Purpose) -> RecordedDice {
    RecordedDice::labelled(action.args.iter().filter_map(|a| match a {
        Arg::Roll(roll) => {
            let purpose = Purpose::of_dice(roll.label.as_ref().map(|l| l.value.as_str()), unlabelled);
            Some((purpose, roll.dice.value.iter().map(|d| d.value).collect()))
        }
        _ => None,
    }))
}

/// The layout of a unit's stands in its current formation, each stand as wide as the rule data
/// says (Ch15 8.0).
fn layout_for(rules: &Rules, unit: &crate::engine::state::Unit) -> Layout {
    let formation = rules.data.formation(&unit.formation);
    let (frontage, gap) = match (formation, &unit.arm) {
        (_, Arm::Battery { .. }) | (_, Arm::Cavalry { mounted: true, .. }) => (None, 0.0),
        (Some(f), _) => (f.frontage_stands(), f.gap_inches()),
        (None, _) => (None, 0.0),
    };
    Layout::new(unit.stands.max(1), frontage, gap, rules.tables.stand_width)
}

impl Game {
    fn unit(&self, r: &mut Replayer<'_>, name: Option<&ast::Name>) -> Option<UnitId> {
        let name = name?;
        let id = self.state.unit_named(&name.value);
        if id.is_none() {
            r.find(name.span, Level::Error, format!("no unit \"{}\" in this game", name.value), "");
        }
        id
    }

    fn name(&self, id: UnitId) -> String {
        self.state.unit(id).map(|u| u.name.clone()).unwrap_or_default()
    }

    /// One action of the log, by the part of play its verb belongs to.
    fn action(&mut self, r: &mut Replayer<'_>, action: &Action) {
        // What the optional modules forbid a unit this turn (Ch13 8.0, 14.0; `command.rs`).
        self.module_limits(r, action);
        // Ch13 4.0: a unit under a blind neither fires nor charges; the line is not played.
        if self.blinds_before(r, action) {
            return;
        }
        match Verb::from_word(&action.verb.value) {
            Some(Verb::Command(verb)) => self.command_verb(r, action, verb),
            Some(Verb::Maneuver(verb)) => self.maneuver_verb(r, action, verb),
            Some(Verb::Fire(verb)) => self.fire_verb(r, action, verb),
            Some(Verb::Assault(verb)) => self.assault_verb(r, action, verb),
            Some(Verb::Status(verb)) => self.status_verb(r, action, verb),
            // A remark; `scripted` dice are read by the scenario scripts when they run.
            Some(Verb::Note | Verb::Scripted) => {}
            // A word that is no verb of the language (the language's checks report it).
            None => r.not_replayed(action),
        }
        self.follow_the_log(r, action);
        self.spot_blinds(r); // Ch13 4.0
        // Ch13 15.0, dotc D16: guns whose holder has left the table go back to their side.
        if !self.state.guns.is_empty() {
            let mut events = Vec::new();
            if crate::engine::guns::settle(&mut self.state, &mut events) {
                r.emit(events);
            }
        }
    }

    /// Go on from the results the log states where they differ from the rules' (see [`Follow`]),
    /// saying so at the action.
    fn follow_the_log(&mut self, r: &mut Replayer<'_>, action: &Action) {
        for follow in std::mem::take(&mut r.follow) {
            let mut events = Vec::new();
            let said = match follow {
                Follow::Stands { unit, rules, claimed } => {
                    let Some(id) = self.state.unit_named(&unit) else { continue };
                    if claimed > rules {
                        let extra = claimed - rules;
                        let rule = "RULE-05-3.3";
                        if morale::remove_stands(&self.rules, &mut self.state, id, extra, &mut events, rule)
                            .is_err()
                        {
                            continue;
                        }
                    } else if let Some(u) = self.state.unit_mut(id) {
                        let back = (rules - claimed).min(u.starting_stands.saturating_sub(u.stands));
                        u.stands += back;
                        if u.stands > 0 {
                            u.removed = false;
                        }
                        if let Some(b) = u.brigade.and_then(|b| self.state.brigades.get_mut(b.0)) {
                            b.losses = b.losses.saturating_sub(back);
                        }
                    }
                    format!("{unit} has lost {claimed} stands, as the log says")
                }
                Follow::Micro { unit, micro } => {
                    let Some(u) = self.state.unit_named(&unit).and_then(|id| self.state.unit_mut(id)) else {
                        continue;
                    };
                    u.micro_hit = micro;
                    format!("{unit} keeps {micro} micro-hit, as the log says")
                }
                Follow::Disorder { unit } => {
                    let Some(u) = self.state.unit_named(&unit).and_then(|id| self.state.unit_mut(id)) else {
                        continue;
                    };
                    u.markers.disorder = true;
                    format!("{unit} is disordered, as the log says")
                }
                Follow::Rally { rallied } => {
                    let Some(u) = self
                        .state
                        .unit_named(unit_arg(action).map_or("", |n| &n.value))
                        .and_then(|id| self.state.unit_mut(id))
                    else {
                        continue;
                    };
                    u.markers.disorder = !rallied;
                    let how = if rallied { "rallied" } else { "still disordered" };
                    format!("{} is {how}, as the log says", u.name)
                }
                Follow::Number { what, value } => {
                    if what != "pips" {
                        continue;
                    }
                    let Some(b) = unit_arg(action).and_then(|n| self.brigade_of_leader(&n.value)) else {
                        continue;
                    };
                    self.state.brigades[b].pips = value;
                    format!("{} has {value} pips, as the log says", self.state.brigades[b].name)
                }
            };
            r.emit(events);
            // At the end of the claim, so it reads after the disagreement it follows.
            let end = action.claim.as_ref().map_or(action.span.end, |c| c.span.end);
            r.find(
                Span { start: end, end },
                Level::Followed,
                format!("the replay goes on from the log's result: {said}"),
                "",
            );
        }
    }

    /// The table as it stands now.
    fn table(&self, turn: u32, phase: PhaseKind) -> Table {
        let units = self
            .state
            .units
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let markers = self.state.marker_ids(UnitId(i));
                let on = u.on_table && !u.removed;
                TableUnit {
                    name: u.name.clone(),
                    body: self.bodies.get(&UnitId(i)).copied().filter(|_| on),
                    markers,
                }
            })
            .collect();
        let leaders = self
            .state
            .leaders
            .iter()
            .map(|l| (l.name.clone(), self.leader_positions.get(&l.name).copied().filter(|_| !l.removed)))
            .collect();
        let blinds = view::Sight::blinds_now(&self.state);
        Table { turn, phase, units, leaders, works: self.bf.works.clone(), blinds }
    }

    /// Bodies follow the state's losses (RULE-05-3.3) and removals.
    pub(super) fn sync_bodies(&mut self) {
        let state = &self.state;
        self.bodies.retain(|id, _| state.unit(*id).is_some_and(|u| !u.removed && u.stands > 0));
        for (id, body) in &mut self.bodies {
            if let Some(u) = state.unit(*id)
                && u.stands < body.stand_count()
            {
                *body = body.with_stands(u.stands);
            }
        }
        // Ch16 2.2: each unit's command range as the table now stands, for the tier's modifier
        // on its Discipline checks.
        let mut known = std::mem::take(&mut self.command_ranges);
        let ranges: Vec<(UnitId, Option<f64>)> = self
            .bodies
            .iter()
            .map(|(&id, body)| (id, self.command_range_known(id, body, &mut known)))
            .collect();
        self.command_ranges = known;
        for (id, range) in ranges {
            if let Some(u) = self.state.unit_mut(id) {
                u.command_range = range;
            }
        }
        if self.rules.module("second_line") {
            self.sync_second_line();
        }
    }

    /// Ch13 19.0 (module second_line, dotc D11): each unit on the table is supported when a
    /// friendly regiment, formed (no skirmish or open order: no gaps between its stands) and not
    /// Disordered, stands within the module's `behind` inches straight behind its centre
    /// (`battlefield::support::supports`). Read by every Discipline check's standing modifiers.
    fn sync_second_line(&mut self) {
        let Some(behind) = self.rules.tables.second_line.behind else { return };
        let steady_friends: Vec<(UnitId, crate::engine::state::SideId, crate::battlefield::body::Body)> =
            self.bodies
                .iter()
                .filter_map(|(&id, body)| {
                    let u = self.state.unit(id)?;
                    let formed =
                        self.rules.data.formation(&u.formation).is_some_and(crate::engine::melee::is_formed);
                    let regiment = !u.is_battery();
                    (formed && regiment && !u.markers.disorder && !u.removed && u.on_table)
                        .then_some((id, u.side, *body))
                })
                .collect();
        let supported: Vec<(UnitId, bool)> = self
            .bodies
            .iter()
            .map(|(&id, body)| {
                let side = self.state.unit(id).map(|u| u.side);
                let backed = steady_friends.iter().any(|(friend, friend_side, friend_body)| {
                    *friend != id
                        && Some(*friend_side) == side
                        && crate::battlefield::support::supports(body, friend_body, behind)
                });
                (id, backed)
            })
            .collect();
        for (id, backed) in supported {
            if let Some(u) = self.state.unit_mut(id) {
                u.supported = backed;
            }
        }
    }
}

#[cfg(test)]
mod narrate_tests;
#[cfg(test)]
mod sharpshooter_situations;
#[cfg(test)]
mod situations;
#[cfg(test)]
mod tests;
