//! Replay of a logged game (the first slice of "Replay and audit of logged games").
//!
//! [`replay`] takes a game log's [`Analysis`] (with its scenario loaded) and plays the log through
//! the rules engine: the scenario's [`Battlefield`], every unit's [`Body`], the starting state and
//! the [`Rules`] of [`crate::engine::setup`], then each turn (RULINGS G7: one side's active
//! sequence) and phase in order. Each action becomes an engine call fed with the log's own dice
//! ([`RecordedDice`]); what the engine reports is kept as events, and every place where the log
//! and the rules part ways is a [`Finding`] at the action's span, citing the rule: a claim the dice
//! do not give, a missing die, an illegal order, an illegal move. A failed action changes nothing
//! (the engine is transactional) and the replay goes on without it.
//!
//! Pure and deterministic: the same log gives the same bytes.
//!
//! Replayed: `pips` (Ch16 2.1, RULINGS G2), `reserve` (Ch16 2.1, 2.3, G8), `formation`, `move`,
//! `enter`, `retreat` (through [`battlefield::check_move`]), `fire` (RULE-05-x), `assault` with its
//! steps (Ch16 7.1-7.4), `rally` (RULE-07-3.2, 3.3), `note`; at each turn's end the smoke clears
//! as the weather and RULINGS C17 say and the brigades' states are checked (RULINGS C12). Any
//! other verb is a note, "not replayed yet".

mod claims;
mod narrative;

use std::collections::BTreeMap;

use dotc_lang::Analysis;
use dotc_lang::ast::{self, Action, Arg, PhaseKind, Span};
use dotc_lang::library::RuleData;
use serde::Serialize;

use crate::battlefield::{self, Battlefield, Body, Move, MoveKind, Mover, Pose, SightQuery, Smoke};
use crate::dice::{Purpose, RecordedDice, d3};
use crate::engine::assault::{AssaultInput, AssaultResult, resolve_assault};
use crate::engine::fire::{FireInput, FireKind, resolve_volley};
use crate::engine::melee::MeleeInput;
use crate::engine::setup::Setup;
use crate::engine::state::{Arm, GameState, UnitId};
use crate::engine::{EngineError, Event, Rules, What, morale, transact};
use crate::geometry::Layout;
use crate::rulings::{Rulings, SmokeClearing};

pub use narrative::Summary;

/// How to replay. The source text is only used to give line numbers and quote the actions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReplayOptions<'a> {
    /// The game log's text, as analysed.
    pub source: Option<&'a str>,
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
}

/// One place where the log and the rules part ways.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    pub span: Span,
    pub level: Level,
    pub message: String,
    /// The RULE id, Ch16 section or RULINGS id.
    pub rule: String,
}

/// One engine event, with where in the log it happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayEvent {
    pub turn: u32,
    pub side: String,
    pub phase: PhaseKind,
    /// 1-based line of the action (0 when no source was given).
    pub line: usize,
    pub span: Span,
    pub event: Event,
}

/// A replayed game: what happened, what disagrees, and how the game stands at the end.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Replay {
    pub events: Vec<ReplayEvent>,
    pub findings: Vec<Finding>,
    pub summary: Summary,
    /// The narrative's outline: each action in order, with the text the log wrote.
    #[serde(skip)]
    steps: Vec<Step>,
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
    },
    /// The end of the turn whose span this is.
    EndOfTurn(Span),
}

impl Replay {
    /// Findings that are not mere notes.
    pub fn has_problems(&self) -> bool {
        self.findings.iter().any(|f| f.level != Level::Note)
    }
}

/// Replay a game log. Never panics; a log without a usable scenario gives one finding.
pub fn replay(analysis: &Analysis, options: &ReplayOptions<'_>) -> Replay {
    let mut r = Replayer {
        source: options.source,
        turn: 0,
        side: String::new(),
        phase: PhaseKind::Command,
        span: Span::default(),
        line: 0,
        events: Vec::new(),
        findings: Vec::new(),
        steps: Vec::new(),
    };
    let game_rules = analysis.document.game.as_ref().map(|g| g.rules.as_slice()).unwrap_or(&[]);
    let header_span = analysis.document.game.as_ref().map(|g| g.span).unwrap_or_default();
    let Some(loaded) = analysis.scenario.as_deref() else {
        r.find(header_span, Level::Error, "the game's scenario could not be loaded", "");
        return r.finish(None);
    };
    let Some(scenario) = loaded.document.scenario.as_ref() else {
        r.find(header_span, Level::Error, "the game's scenario file holds no scenario", "");
        return r.finish(None);
    };
    let data = &loaded.rule_data;
    let settings = dotc_lang::model::effective_rulings(scenario.rules.iter().chain(game_rules.iter()));
    let rules = Rulings::from_settings(&settings).ok().and_then(|rulings| {
        let modules = scenario
            .rules
            .iter()
            .chain(game_rules.iter())
            .flat_map(|b| b.modules.iter().map(|m| m.value.clone()));
        Rules::new(data.clone(), rulings, modules).ok()
    });
    let Some(rules) = rules else {
        r.find(header_span, Level::Error, "the rule data or rulings in force are not usable", "");
        return r.finish(None);
    };
    let setup = Setup::from_scenario(scenario, &rules);
    for (unit, why) in &setup.skipped {
        r.find(header_span, Level::Note, format!("{unit} is left out of the replay: {why}"), "");
    }
    let mut game = Game {
        bf: Battlefield::from_scenario(scenario, data),
        state: setup.state,
        bodies: BTreeMap::new(),
        leader_positions: BTreeMap::new(),
        brisk_wind: scenario
            .rules
            .iter()
            .chain(game_rules.iter())
            .flat_map(|b| b.weather.iter())
            .any(|w| w.aspect.value == "wind" && w.condition.value == "brisk"),
        ground: scenario
            .rules
            .iter()
            .chain(game_rules.iter())
            .flat_map(|b| b.weather.iter())
            .filter(|w| w.aspect.value == "ground")
            .find_map(|w| battlefield::Ground::from_word(&w.condition.value)),
        pending: BTreeMap::new(),
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
            if let (Some(id), Some(body)) =
                (game.state.unit_named(&unit.name.value), Body::from_unit(unit, data, men))
            {
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
    for turn in &analysis.document.turns {
        r.turn = turn.number.value;
        r.side = turn.side.value.clone();
        r.steps.push(Step::Turn { number: r.turn, side: r.side.clone() });
        game.state.start_turn(r.turn);
        // RULINGS G8, Ch16 2.1: a new Phase 1; unspent pips are lost, the one banked pip stays.
        for b in &mut game.state.brigades {
            b.pips = 0;
        }
        for phase in &turn.phases {
            r.phase = phase.kind.value;
            r.steps.push(Step::Phase(r.phase));
            game.state.start_phase();
            for action in &phase.actions {
                r.begin_action(action);
                game.action(&mut r, action);
            }
            game.flush_formation_changes(&mut r);
        }
        r.steps.push(Step::EndOfTurn(turn.span));
        r.span = turn.span;
        r.line = 0;
        game.end_of_turn(&mut r);
    }
    let summary = Summary::of(&game.state, &game.rules);
    let mut out = r.finish(Some(summary));
    out.findings.sort_by_key(|f| (f.span.start, f.span.end));
    out
}

/// The replay's bookkeeping: where in the log it is, and what it has found.
struct Replayer<'a> {
    source: Option<&'a str>,
    turn: u32,
    side: String,
    phase: PhaseKind,
    span: Span,
    line: usize,
    events: Vec<ReplayEvent>,
    findings: Vec<Finding>,
    steps: Vec<Step>,
}

impl<'a> Replayer<'a> {
    fn begin_action(&mut self, action: &Action) {
        self.span = action.span;
        self.line = self.source.map_or(0, |s| dotc_lang::diagnostic::line_col(s, action.span.start).0);
        let text = match self.source.and_then(|s| s.get(action.span.start..action.span.end)) {
            Some(text) => text.lines().next().unwrap_or("").trim().trim_end_matches('{').trim().to_string(),
            None => action.verb.value.clone(),
        };
        self.steps.push(Step::Action { line: self.line, span: action.span, text });
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
        self.findings.push(Finding { span, level, message: message.into(), rule: rule.into() });
    }

    /// A finding at the current action.
    fn here(&mut self, level: Level, message: impl Into<String>, rule: impl Into<String>) {
        let span = self.span;
        self.find(span, level, message, rule);
    }

    /// An engine refusal: nothing was applied.
    fn refused(&mut self, error: &EngineError, rule: &str) {
        let (message, rule) = match error {
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

    fn finish(self, summary: Option<Summary>) -> Replay {
        Replay {
            events: self.events,
            findings: self.findings,
            summary: summary.unwrap_or_default(),
            steps: self.steps,
        }
    }
}

/// The game as the replay carries it: the engine's state plus where every unit stands.
struct Game {
    rules: Rules,
    bf: Battlefield,
    state: GameState,
    bodies: BTreeMap<UnitId, Body>,
    /// Leaders where the scenario places them (leaders do not move in this slice).
    leader_positions: BTreeMap<String, (f64, f64)>,
    brisk_wind: bool,
    ground: Option<battlefield::Ground>,
    /// Formation changes waiting for the unit's move in the same phase: old formation, old body,
    /// the action's span.
    pending: BTreeMap<UnitId, (String, Body, Span)>,
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
            let purpose = match roll.label.as_ref().map(|l| l.value.as_str()) {
                None | Some("roll") => unlabelled,
                Some("saves") | Some("save") => Purpose::Save,
                Some(other) => Purpose::from_label(other).unwrap_or(unlabelled),
            };
            Some((purpose, roll.dice.value.iter().map(|d| d.value).collect()))
        }
        _ => None,
    }))
}

/// The layout of a unit's stands in its current formation.
fn layout_for(data: &RuleData, unit: &crate::engine::state::Unit) -> Layout {
    let formation = data.formation(&unit.formation);
    let (frontage, gap) = match (formation, &unit.arm) {
        (_, Arm::Battery { .. }) | (_, Arm::Cavalry { mounted: true, .. }) => (None, 0.0),
        (Some(f), _) => (f.frontage_stands(), f.gap_inches()),
        (None, _) => (None, 0.0),
    };
    Layout::new(unit.stands.max(1), frontage, gap)
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

    fn action(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "pips" => self.pips(r, action),
            "reserve" => self.reserve(r, action),
            "formation" => self.formation(r, action),
            "move" | "enter" | "retreat" => self.movement(r, action),
            "fire" => self.fire(r, action),
            "assault" => self.assault(r, action),
            "rally" => self.rally(r, action),
            "note" => {}
            verb => {
                let rule = dotc_lang::verbs::verb_spec(verb).map_or("", |v| v.rule);
                r.here(
                    Level::Note,
                    format!("`{verb}` is not replayed yet: its effects are not applied"),
                    rule,
                );
            }
        }
        self.sync_bodies();
    }

    /// Bodies follow the state's losses (RULE-05-3.3) and removals.
    fn sync_bodies(&mut self) {
        let state = &self.state;
        self.bodies.retain(|id, _| state.unit(*id).is_some_and(|u| !u.removed && u.stands > 0));
        for (id, body) in &mut self.bodies {
            if let Some(u) = state.unit(*id)
                && u.stands < body.stand_count()
            {
                *body = body.with_stands(u.stands);
            }
        }
    }

    // ------------------------------------------------------------------ command

    fn brigade_of_leader(&self, leader: &str) -> Option<usize> {
        let l = self.state.leader_named(leader)?;
        self.state.brigades.iter().position(|b| b.brigadier == Some(l))
    }

    fn pips(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, RULINGS G2";
        let Some(name) = unit_arg(action) else { return };
        let Some(lid) = self.state.leader_named(&name.value) else {
            r.find(name.span, Level::Error, format!("no leader \"{}\" in this game", name.value), "");
            return;
        };
        let Some(b) = self.brigade_of_leader(&name.value) else {
            r.here(Level::Note, format!("{} commands no brigade: pips not replayed", name.value), RULE);
            return;
        };
        let leader = &self.state.leaders[lid.0];
        let Some(rating) = self.rules.data.rating(&leader.rating) else {
            r.here(Level::Error, format!("no rating `{}` in the rule data", leader.rating), RULE);
            return;
        };
        let mut dice = dice_of(action, Purpose::StaffPips);
        let face = match crate::dice::DiceSource::roll(&mut dice, Purpose::StaffPips, 1) {
            Ok(f) => f[0],
            Err(e) => return r.refused(&EngineError::Dice(e), RULE),
        };
        let rolled = u32::from(d3(face).unwrap_or(1));
        let pips = rating.pips(rolled).saturating_sub(leader.pip_penalty);
        let brigade = &mut self.state.brigades[b];
        brigade.pips = pips;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: i32::try_from(pips).unwrap_or(0),
                pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([Event::new(What::Rolled { purpose: Purpose::StaffPips, faces: vec![face] }, RULE), event]);
        r.leftover(&dice, RULE);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(pips), "pips", RULE);
        }
    }

    fn reserve(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 2.1, 2.3, RULINGS G8";
        let Some(name) = unit_arg(action) else { return };
        let Some(b) = self.brigade_of_leader(&name.value) else {
            r.here(Level::Error, format!("{} commands no brigade: no pip to bank", name.value), RULE);
            return;
        };
        let limit = self.state.brigades[b]
            .brigadier
            .and_then(|l| self.state.leader(l))
            .and_then(|l| self.rules.data.rating(&l.rating))
            .and_then(|r| r.bank)
            .unwrap_or(1);
        let brigade = &mut self.state.brigades[b];
        if brigade.banked >= limit {
            let message = format!(
                "{} already holds its banked pip (at most {limit}): the rules bank no second one",
                brigade.name
            );
            return r.here(Level::Warning, message, RULE);
        }
        if brigade.pips == 0 {
            return r.here(Level::Error, format!("{} has no pip left to bank", brigade.name), RULE);
        }
        brigade.pips -= 1;
        brigade.banked += 1;
        let event = Event::new(
            What::Pips {
                brigade: brigade.name.clone(),
                change: -1,
                pips: brigade.pips,
                banked: brigade.banked,
            },
            RULE,
        );
        r.emit([event]);
    }

    // ------------------------------------------------------------------ maneuver

    fn formation(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 3.2";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(word) = action.args.iter().find_map(|a| if let Arg::Word(w) = a { Some(w) } else { None })
        else {
            return r.here(Level::Error, "a formation change names no formation", RULE);
        };
        if self.rules.data.formation(&word.value).is_none() {
            return r.find(
                word.span,
                Level::Error,
                format!("no formation `{}` in the rule data", word.value),
                RULE,
            );
        }
        let Some(body) = self.bodies.get(&id).copied() else {
            return r.here(Level::Error, format!("{} is not on the table", self.name(id)), RULE);
        };
        let Some(u) = self.state.unit_mut(id) else { return };
        let old = std::mem::replace(&mut u.formation, word.value.clone());
        u.turn.moved = true;
        let title =
            self.rules.data.formation(&word.value).map_or(word.value.clone(), |f| f.meta.title().to_string());
        let layout = layout_for(&self.rules.data, u);
        self.bodies.insert(id, Body { layout, ..body });
        self.pending.entry(id).or_insert((old, body, action.span));
        r.emit([Event::new(What::Note { text: format!("{} forms {}", self.name(id), title) }, RULE)]);
    }

    /// Formation changes with no move after them are judged standing still.
    fn flush_formation_changes(&mut self, r: &mut Replayer<'_>) {
        let pending = std::mem::take(&mut self.pending);
        for (id, (old, body, span)) in pending {
            let Some(to) = self.state.unit(id).map(|u| u.formation.clone()) else { continue };
            let saved = r.span;
            r.span = span;
            self.judge_move(r, id, &old, MoveKind::ChangeFormation { to: &to }, body, Pose::of(&body), &[]);
            r.span = saved;
        }
    }

    fn mover<'f>(&self, id: UnitId, formation: &'f str) -> Option<Mover<'f>> {
        let u = self.state.unit(id)?;
        let mut mover = match u.arm {
            Arm::Infantry => Mover::infantry(formation),
            Arm::Cavalry { mounted: true, .. } => Mover::mounted_cavalry(formation),
            Arm::Cavalry { mounted: false, .. } => Mover::dismounted_cavalry(),
            Arm::Battery { limbered } => Mover::battery(limbered),
        };
        mover.disordered = u.markers.disorder;
        Some(mover)
    }

    #[allow(clippy::too_many_arguments)]
    fn judge_move(
        &self,
        r: &mut Replayer<'_>,
        id: UnitId,
        formation: &str,
        kind: MoveKind<'_>,
        start: Body,
        end: Pose,
        waypoints: &[Pose],
    ) {
        let Some(mut mover) = self.mover(id, formation) else { return };
        let status = self.state.brigade_status(id);
        let state_id = match status {
            crate::engine::events::BrigadeStatus::Fresh => None,
            crate::engine::events::BrigadeStatus::Hesitant => Some("hesitant"),
            crate::engine::events::BrigadeStatus::Broken => Some("broken"),
        };
        mover.brigade_state = state_id;
        let side = self.state.unit(id).map(|u| u.side);
        let friends: Vec<Body> = self
            .bodies
            .iter()
            .filter(|(other, _)| **other != id && self.state.unit(**other).map(|u| u.side) == side)
            .map(|(_, b)| *b)
            .collect();
        let mv = Move { mover, kind, start, waypoints, end, ground: self.ground, friends: &friends };
        let report = battlefield::check_move(&self.bf, &self.rules.data, &self.rules.rulings, &mv);
        for finding in report.violations() {
            r.here(Level::Error, format!("{}: {}", self.name(id), finding.kind), finding.rule.clone());
        }
        let text =
            format!("{} moves {:.1}\" of an allowed {:.1}\"", self.name(id), report.used, report.allowance);
        let mut events = vec![Event::new(What::Note { text }, "Ch16 3.1")];
        for effect in report.effects() {
            events
                .push(Event::new(What::Note { text: format!("{}: {}", self.name(id), effect) }, "Ch16 3.1"));
        }
        r.emit(events);
    }

    fn movement(&mut self, r: &mut Replayer<'_>, action: &Action) {
        let verb = action.verb.value.as_str();
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(to) = action.args.iter().find_map(|a| if let Arg::To(p) = a { Some(p.value) } else { None })
        else {
            return r.here(Level::Error, format!("`{verb}` gives no position"), "Ch16 3.1");
        };
        let facing =
            action.args.iter().find_map(|a| if let Arg::Facing(f) = a { f.value.degrees() } else { None });
        let waypoints: Vec<Pose> = action
            .args
            .iter()
            .filter_map(|a| if let Arg::Via(v) = a { Some(v) } else { None })
            .flat_map(|v| v.value.iter().map(|p| Pose::new((p.x, p.y), facing.unwrap_or(0.0))))
            .collect();
        if verb == "enter" {
            let Some(u) = self.state.unit_mut(id) else { return };
            if u.on_table && self.bodies.contains_key(&id) {
                let name = u.name.clone();
                return r.here(
                    Level::Error,
                    format!("{name} is already on the table"),
                    "scenario reinforcements",
                );
            }
            u.on_table = true;
            u.turn.moved = true;
            let layout = layout_for(&self.rules.data, u);
            let name = u.name.clone();
            self.bodies.insert(id, Body::new((to.x, to.y), facing.unwrap_or(0.0), layout));
            r.emit([Event::new(
                What::Note { text: format!("{name} enters at ({}, {})", to.x, to.y) },
                "scenario reinforcements",
            )]);
            return;
        }
        let Some(start) = self.bodies.get(&id).copied() else {
            return r.here(Level::Error, format!("{} is not on the table", self.name(id)), "Ch16 3.1");
        };
        let end = Pose::new((to.x, to.y), facing.unwrap_or(start.facing));
        let current = self.state.unit(id).map(|u| u.formation.clone()).unwrap_or_default();
        match (verb, self.pending.remove(&id)) {
            ("retreat", _) => {
                let cavalry_melee = false;
                self.judge_move(r, id, &current, MoveKind::Retreat { cavalry_melee }, start, end, &waypoints);
            }
            (_, Some((old, old_body, _))) => {
                let kind = MoveKind::ChangeFormation { to: &current };
                self.judge_move(r, id, &old, kind, old_body, end, &waypoints);
            }
            _ => self.judge_move(r, id, &current, MoveKind::Advance, start, end, &waypoints),
        }
        if verb == "move"
            && let Some(u) = self.state.unit_mut(id)
        {
            u.turn.moved = true;
        }
        self.bodies.insert(id, Body { position: end.position, facing: end.facing, ..start });
    }

    // ------------------------------------------------------------------ fire

    /// The smoke on the table but a unit's own marker (the engine counts that one itself).
    fn smoke_but(&self, id: UnitId) -> Vec<Smoke> {
        self.bodies
            .iter()
            .filter(|(other, _)| {
                **other != id && self.state.unit(**other).is_some_and(|u| u.markers.gunsmoke)
            })
            .map(|(_, b)| Smoke::marker_of(b))
            .collect()
    }

    /// The facts of a shot the state does not hold, from the bodies and the battlefield.
    fn fire_input(&self, firer: UnitId, fb: &Body, tb: &Body, kind: FireKind) -> (FireInput, bool) {
        let smoke = self.smoke_but(firer);
        let side = self.state.unit(firer).map(|u| u.side);
        let friends: Vec<(Body, bool)> = self
            .bodies
            .iter()
            .filter(|(other, _)| **other != firer && self.state.unit(**other).map(|u| u.side) == side)
            .map(|(other, b)| {
                let formed = self.state.unit(*other).is_some_and(|u| {
                    self.rules.data.formation(&u.formation).is_none_or(|f| f.gap_inches() == 0.0)
                });
                (*b, formed)
            })
            .collect();
        let friend_refs: Vec<battlefield::Friend<'_>> =
            friends.iter().map(|(body, formed)| battlefield::Friend { body, formed: *formed }).collect();
        let mut query = SightQuery::new(fb, tb);
        query.smoke = &smoke;
        query.friends = &friend_refs;
        let sight = self.bf.sight(&query);
        let mut input = FireInput::at(battlefield::range::range(fb, tb), kind);
        input.cover = self.bf.cover(fb, tb, None);
        input.smoke = sight.smoke_penalty;
        (input, sight.visible)
    }

    fn fire(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "RULE-05-1.1, Ch16 5.0";
        let (Some(firer), Some(target)) = (self.unit(r, unit_arg(action)), self.unit(r, target_arg(action)))
        else {
            return;
        };
        let (Some(fb), Some(tb)) = (self.bodies.get(&firer).copied(), self.bodies.get(&target).copied())
        else {
            return r.here(Level::Error, "the firer or its target is not on the table", RULE);
        };
        let active =
            self.state.unit(firer).map(|u| self.state.sides[u.side.0].name.as_str()) == Some(&r.side);
        let kind =
            if r.phase == PhaseKind::Fire || active { FireKind::Phase3 } else { FireKind::Opportunity };
        let (input, visible) = self.fire_input(firer, &fb, &tb, kind);
        if !visible {
            r.here(
                Level::Warning,
                format!("{} has no clear line of sight to {}", self.name(firer), self.name(target)),
                "RULE-05-6.1, Ch16 4.1",
            );
        }
        let mut dice = dice_of(action, Purpose::ToHit);
        let micro_before = self.state.unit(target).map_or(0, |u| u.micro_hit);
        match resolve_volley(&self.rules, &mut self.state, firer, target, &input, &mut dice) {
            Ok(report) => {
                r.emit(report.events.iter().cloned());
                r.leftover(&dice, RULE);
                if let Some(claim) = &action.claim {
                    let micro_after = self.state.unit(target).map_or(0, |u| u.micro_hit);
                    claims::check_volley(r, claim, &report, micro_before, micro_after);
                }
            }
            Err(e) => r.refused(&e, RULE),
        }
    }

    // ------------------------------------------------------------------ assault

    fn assault(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 7.1";
        let (Some(charger), Some(target)) =
            (self.unit(r, unit_arg(action)), self.unit(r, target_arg(action)))
        else {
            return;
        };
        let (Some(cb), Some(tb)) = (self.bodies.get(&charger).copied(), self.bodies.get(&target).copied())
        else {
            return r.here(Level::Error, "the charger or its target is not on the table", RULE);
        };
        let distance = battlefield::range::range(&cb, &tb);
        let pip = action.args.iter().find_map(|a| if let Arg::Pip(n) = a { Some(n) } else { None });
        let brigadier = self
            .state
            .unit(charger)
            .and_then(|u| u.brigade)
            .and_then(|b| self.state.brigade(b))
            .and_then(|b| b.brigadier)
            .and_then(|l| self.state.leader(l))
            .map(|l| l.name.clone());
        if let (Some(pip), Some(brigadier)) = (pip, &brigadier)
            && pip.value != *brigadier
        {
            let message =
                format!("{} pays for this assault, but {brigadier} commands the brigade", pip.value);
            r.find(pip.span, Level::Error, message, "Ch16 2.3, 7.1");
        }
        let brigadier_distance = brigadier
            .and_then(|name| self.leader_positions.get(&name))
            .map(|&(x, y)| battlefield::range::distance_to(geo::Point::new(x, y), &cb).max(0.0));
        let step = |verb: &str| action.steps.iter().find(|s| s.verb.value == verb);
        let closing = step("closing_volley").map(|_| {
            let line = self.rules.tables.interruption;
            let at =
                battlefield::interruption_point(&self.bf, &cb, &tb, line).unwrap_or_else(|| Pose::of(&cb));
            let cb_at = Body { position: at.position, facing: at.facing, ..cb };
            let (mut input, _) = self.fire_input(target, &tb, &cb_at, FireKind::Closing);
            input.range = input.range.min(distance);
            input
        });
        let defender_terrain = self.bf.cover(&cb, &tb, None).from;
        let melee =
            MeleeInput { momentum: self.momentum(&cb, &tb), defender_terrain, ..MeleeInput::default() };
        let input =
            AssaultInput { distance, brigadier_distance, coordinated: false, closing_volley: closing, melee };
        // The steps' dice, each list labelled with what it serves.
        let mut dice = RecordedDice::default();
        for s in &action.steps {
            let unlabelled = match s.verb.value.as_str() {
                "closing_volley" => Purpose::ToHit,
                "discipline" | "rebel_yell" => Purpose::Discipline,
                "melee" => Purpose::Melee,
                _ => Purpose::ToHit,
            };
            for a in &s.args {
                if let Arg::Roll(roll) = a {
                    let purpose = match roll.label.as_ref().map(|l| l.value.as_str()) {
                        None | Some("roll") | Some("vs") => unlabelled,
                        Some("saves") | Some("save") => Purpose::Save,
                        Some(other) => Purpose::from_label(other).unwrap_or(unlabelled),
                    };
                    dice.push(Some(purpose), roll.dice.value.iter().map(|d| d.value).collect());
                }
            }
        }
        match resolve_assault(&self.rules, &mut self.state, charger, target, &input, &mut dice) {
            Ok(report) => {
                r.emit(report.events.iter().cloned());
                r.leftover(&dice, RULE);
                claims::check_assault(r, action, &report, &self.name(charger), &self.name(target));
                if matches!(
                    report.result,
                    AssaultResult::Melee(_) | AssaultResult::Routed | AssaultResult::Overrun
                ) {
                    // The charger closes straight ahead into contact (Ch16 7.2).
                    let rad = cb.facing.to_radians();
                    let (dx, dy) = (rad.sin() * distance, rad.cos() * distance);
                    let moved = Body { position: (cb.position.0 + dx, cb.position.1 + dy), ..cb };
                    self.bodies.insert(charger, moved);
                }
            }
            Err(e) => r.refused(&e, RULE),
        }
    }

    /// Momentum: the charge's last 3" cross no terrain area (Ch16 7.3, RULINGS G10).
    fn momentum(&self, cb: &Body, tb: &Body) -> bool {
        use geo::Intersects;
        let line = battlefield::range::range_line(cb, tb);
        let (a, b) = (line.start, line.end);
        let length = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
        if length == 0.0 {
            return true;
        }
        let t = ((length - 3.0) / length).max(0.0);
        let from = geo::Coord { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
        let last = geo::Line::new(from, b);
        !self.bf.areas.iter().any(|area| area.outline.intersects(&last))
    }

    // ------------------------------------------------------------------ status

    fn rally(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "RULE-07-3.3, Ch16 8.3";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let mut events = Vec::new();
        let result = if r.phase == PhaseKind::Command {
            let distance = self
                .state
                .unit(id)
                .and_then(|u| u.brigade)
                .and_then(|b| self.state.brigade(b))
                .and_then(|b| b.brigadier)
                .and_then(|l| self.state.leader(l))
                .and_then(|l| self.leader_positions.get(&l.name))
                .zip(self.bodies.get(&id))
                .map_or(0.0, |(&(x, y), body)| battlefield::range::distance_to(geo::Point::new(x, y), body));
            let rules = &self.rules;
            transact(&mut self.state, |s| morale::command_rally(rules, s, id, distance, &mut events))
                .map(|()| true)
        } else {
            let mut dice = dice_of(action, Purpose::Rally);
            let rules = &self.rules;
            let out =
                transact(&mut self.state, |s| morale::natural_rally(rules, s, id, &mut dice, &mut events));
            if out.is_ok() {
                r.leftover(&dice, RULE);
            }
            out
        };
        match result {
            Ok(rallied) => {
                r.emit(events);
                if let Some(claim) = &action.claim {
                    claims::check_rally(r, claim, rallied);
                }
            }
            Err(e) => r.refused(&e, RULE),
        }
    }

    /// Phase 5 of the turn: smoke clears (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11) and the brigades'
    /// states are checked (RULINGS C12).
    fn end_of_turn(&mut self, r: &mut Replayer<'_>) {
        let mut events = Vec::new();
        let active = r.side.clone();
        let clearing = self.rules.rulings.smoke_clearing;
        let title = self.rules.tables.gunsmoke.meta.title().to_string();
        for u in &mut self.state.units {
            if !u.markers.gunsmoke {
                continue;
            }
            let own_turn = self.state.sides.get(u.side.0).is_some_and(|s| s.name == active);
            let (clears, rule) = if self.brisk_wind {
                (true, "RULE-05-5.4, Ch16 5.7")
            } else if clearing == SmokeClearing::PhaseFiveAll {
                (!u.turn.engaged, "Ch16 1.0, RULINGS C17")
            } else {
                (own_turn && !u.turn.fired, "RULE-05-5.4, RULINGS G11")
            };
            if clears {
                u.markers.gunsmoke = false;
                events.push(Event::new(
                    What::MarkerRemoved { unit: u.name.clone(), marker: title.clone() },
                    rule,
                ));
            }
        }
        let rules = &self.rules;
        if let Err(e) = morale::phase_five_faltering(rules, &mut self.state, &mut events) {
            r.refused(&e, "Ch16 8.2, RULINGS C12");
        }
        r.phase = PhaseKind::Status;
        r.emit(events);
    }
}

#[cfg(test)]
mod tests;
