//! Scenario scripts in the replay: hooks, triggers, objectives and victory.
//!
//! [`Scripted`] is built once per replay with the scenario's compiled [`Scripts`]. The driver
//! calls it at fixed points: the start of a turn (`on_turn_start`), the start of each phase
//! (objectives re-counted, `on_objective_taken`, `on_phase`, then the triggers), after each action
//! (`on_unit_destroyed`, `on_unit_routed`, `on_brigade_state`, `on_leader_hit`, read from the
//! action's events), the end of each turn (the same event hooks for the turn's end, objectives,
//! the triggers again) and the end of the game (`on_game_end`, then the `victory` block).
//!
//! A script acts only through the [`Effect`]s it records; they are applied here, through the
//! engine where a rule is involved (a leader casualty roll, Ch16 2.4). A script that fails is a
//! finding at the log position where it ran, with the script's own span in the scenario file;
//! its effects up to the failure still apply, and a limit stops it at the same operation on every
//! machine. The one exception, a call the wall-clock safety net stopped, is dropped whole and
//! leaves the game without victory points or a result, with a finding that the replay is not
//! reproducible. A script's dice come from the log's `scripted "NAME" roll [..]` lines of the
//! phase it runs in, else from the game's `seed` (or the replay's `--seed`).
//!
//! Objectives: the rulebook does not define holding one; see [`crate::script::HOLD_RADIUS`].

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use dotc_lang::analysis::LoadedScenario;
use dotc_lang::ast::{self, Compare, Condition, Span};

use super::{Game, Level, Replayer, Step, Summary, unit_arg};
use crate::dice::{Purpose, RecordedDice};
use crate::engine::events::BrigadeStatus;
use crate::engine::state::UnitId;
use crate::engine::{Event, What, morale, transact};
use crate::script::{
    BrigadeView, Effect, ErrorKind, LeaderView, Limits, ObjectiveView, Outcome, ScriptError, Scripts,
    Snapshot, UnitView, part,
};

/// The rule events of scripts cite.
const SCRIPT_RULE: &str = "scenario script";
/// What the findings of a script stopped by the wall clock cite: the replay cannot be trusted.
const NOT_REPRODUCIBLE: &str = "scenario script: not reproducible";
/// The rule objective events cite (the rulebook is silent; see [`HOLD_RADIUS`](crate::battlefield::HOLD_RADIUS)).
const OBJECTIVE_RULE: &str = "objectives: held within 3\" or the objective's `within`";
/// How deep hooks may call hooks (a hook's effect that fires a hook, and so on).
const MAX_HOOK_DEPTH: u32 = 3;

/// The final result of a game: the winner and size of the win, or `draw`, and what decided it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct GameResult {
    /// `confederate major`, `draw`.
    pub result: String,
    /// The victory condition that held, as the scenario writes it, or the script's reason.
    pub by: String,
    /// The log stops before the scenario's last turn and no script ended the game: the result
    /// is the one the victory conditions give where the log stops, not the game's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unfinished: Option<Unfinished>,
}

/// How far an unfinished game got: its last logged turn of the scenario's turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Unfinished {
    pub last_turn: u32,
    pub turns: u32,
}

/// One objective and who has held it.
#[derive(Clone, Debug, PartialEq)]
struct Held {
    name: String,
    at: (f64, f64),
    vp: f64,
    /// Held from this close ([`HOLD_RADIUS`](crate::battlefield::HOLD_RADIUS) unless the objective says).
    within: f64,
    holder: Option<String>,
    /// Each side's turns held in a row now, and its best run.
    streak: BTreeMap<String, u32>,
    best: BTreeMap<String, u32>,
}

/// The `scripted` lines of the phase being played: by name, their dice and the lines.
#[derive(Clone, Debug, Default, PartialEq)]
struct LogDice {
    by_name: BTreeMap<String, (VecDeque<u8>, Vec<Span>)>,
    /// The phase they were read from.
    phase: Option<Span>,
}

/// See [`Scripted::moment`].
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ScriptedMoment {
    scripts: crate::script::ScriptsState,
    objectives: Vec<Held>,
    awarded: BTreeMap<String, f64>,
    ended: Option<GameResult>,
    dice: LogDice,
    untrusted: bool,
}

impl ScriptedMoment {
    /// Move its spans (the phase whose `scripted` lines are loaded) by an edit of the log, in
    /// place; false (half moved) when the edit replaced one.
    pub(super) fn shift(&mut self, map: impl Fn(Span) -> Option<Span>) -> bool {
        if let Some(span) = &mut self.dice.phase {
            let Some(moved) = map(*span) else { return false };
            *span = moved;
        }
        for (_, spans) in self.dice.by_name.values_mut() {
            for span in spans.iter_mut() {
                let Some(moved) = map(*span) else { return false };
                *span = moved;
            }
        }
        true
    }
}

pub(super) struct Scripted {
    scripts: Scripts,
    scenario_file: String,
    scenario_source: String,
    /// The scenario's lines, for the place of each script error.
    scenario_lines: dotc_lang::lines::LineIndex,
    start: Option<u32>,
    turn_length: Option<u32>,
    /// The scenario's turns, when it says.
    turns: Option<u32>,
    sides: Vec<String>,
    objectives: Vec<Held>,
    awarded: BTreeMap<String, f64>,
    victory: Vec<ast::VictoryCondition>,
    ended: Option<GameResult>,
    dice: LogDice,
    /// Nothing to do: no scripts and no objectives.
    idle: bool,
    /// What runs at the start of a turn or phase, as the narrative says it: "scenario script"
    /// when the scenario has scripts or triggers, "scenario objectives" when it has only
    /// objectives and victory conditions.
    runs: &'static str,
    /// The wall-clock safety net stopped a script ([`ErrorKind::WallClock`]): the game has no
    /// result, since where a clock stops a script differs from machine to machine.
    untrusted: bool,
    /// The game as scripts last saw it, refilled in place for the next call ([`Self::snapshot`]).
    view: Arc<Snapshot>,
}

impl Scripted {
    /// `game_rules` are the game log's `rules` blocks and `options` the replay's own switches
    /// (`dotc replay --option`), laid over the scenario's defaults and its `rules` blocks.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        loaded: &LoadedScenario,
        scenario: &ast::Scenario,
        game_rules: &[ast::RulesBlock],
        options: &[(String, bool)],
        game: &Game,
        seed: Option<u64>,
        r: &mut Replayer<'_>,
        header: Span,
    ) -> Scripted {
        let mut scripts = Scripts::compile(scenario, limits(scenario));
        scripts.seed(seed);
        let mut switches =
            dotc_lang::model::effective_options(scenario, scenario.rules.iter().chain(game_rules.iter()));
        for (name, on) in options {
            switches.insert(name.clone(), *on);
        }
        scripts.set_options(&switches);
        let results = game
            .rules
            .tables
            .leader_results
            .iter()
            .flat_map(|row| {
                let (lo, hi) = (row.rolls.0.min(6), row.rolls.1.min(6));
                (lo..=hi).filter_map(move |face| u8::try_from(face).ok().map(|f| (f, row.meta.id.clone())))
            })
            .collect();
        scripts.set_leader_results(results);
        let objectives: Vec<Held> = game
            .bf
            .objectives
            .iter()
            .map(|o| Held {
                name: o.name.clone(),
                at: o.at,
                vp: o.vp.unwrap_or(0.0),
                within: o.within,
                holder: None,
                streak: BTreeMap::new(),
                best: BTreeMap::new(),
            })
            .collect();
        let idle = objectives.is_empty()
            && scenario.scripts.is_empty()
            && scenario.triggers.is_empty()
            && scenario.victory.is_empty();
        let runs = if scenario.scripts.is_empty() && scenario.triggers.is_empty() {
            "scenario objectives"
        } else {
            SCRIPT_RULE
        };
        let mut scripted = Scripted {
            scenario_file: loaded
                .path
                .file_name()
                .map_or_else(|| loaded.path.display().to_string(), |n| n.to_string_lossy().into_owned()),
            scenario_source: loaded.source.clone(),
            scenario_lines: dotc_lang::lines::LineIndex::new(&loaded.source),
            start: scenario.start.as_ref().map(|s| s.value.minutes()),
            turn_length: scenario.turn_length.as_ref().map(|l| l.value),
            turns: scenario.turns.as_ref().map(|t| t.value),
            sides: game.state.sides.iter().map(|s| s.name.clone()).collect(),
            objectives,
            awarded: BTreeMap::new(),
            victory: scenario.victory.clone(),
            ended: None,
            dice: LogDice::default(),
            idle,
            runs,
            untrusted: false,
            view: Arc::default(),
            scripts,
        };
        for error in std::mem::take(&mut scripted.scripts.errors) {
            scripted.script_failed(r, header, &error);
        }
        scripted
    }

    /// What this game's scripts and objectives have changed so far: a replay keeps it at each
    /// checkpoint to take the game up again from there (`resume.rs`).
    pub(super) fn moment(&self) -> ScriptedMoment {
        ScriptedMoment {
            scripts: self.scripts.state(),
            objectives: self.objectives.clone(),
            awarded: self.awarded.clone(),
            ended: self.ended.clone(),
            dice: self.dice.clone(),
            untrusted: self.untrusted,
        }
    }

    /// Back to a [`Scripted::moment`] of this same game.
    pub(super) fn restore(&mut self, moment: &ScriptedMoment) {
        self.scripts.restore(&moment.scripts);
        self.objectives.clone_from(&moment.objectives);
        self.awarded.clone_from(&moment.awarded);
        self.ended.clone_from(&moment.ended);
        self.dice.clone_from(&moment.dice);
        self.untrusted = moment.untrusted;
    }

    /// The script ended the game (`game.end_game`).
    pub(super) fn ended(&self) -> bool {
        self.ended.is_some()
    }

    /// The start of a turn: `on_turn_start(game)`, with the dice of the turn's first phase.
    pub(super) fn turn_start(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        turn: &ast::Turn,
        phases: &[ast::Phase],
    ) {
        if self.idle {
            return;
        }
        if let Some(first) = phases.first() {
            self.load_dice(r, first);
        }
        let span = Span::new(turn.span.start, turn.side.span.end.max(turn.span.start));
        let text = format!("turn {} {} begins: {}", turn.number.value, turn.side.value, self.runs);
        self.at_step(r, span, text, |s, r| s.hook(game, r, span, "on_turn_start", &[], 0));
    }

    /// The start of a phase: objectives, `on_phase(game, phase)`, then the triggers.
    pub(super) fn phase_start(&mut self, game: &mut Game, r: &mut Replayer<'_>, phase: &ast::Phase) {
        if self.idle {
            return;
        }
        self.load_dice(r, phase);
        let span = phase.kind.span;
        let text = format!("the {} phase begins: {}", phase.kind.value.word(), self.runs);
        self.at_step(r, span, text, |s, r| {
            s.objectives_now(game, r, span, false);
            s.hook(game, r, span, "on_phase", &[phase.kind.value.word()], 0);
            s.triggers(game, r, span);
        });
    }

    /// After an action (or anything else that emitted events since `mark`): the hooks its events
    /// call for, at the current action.
    pub(super) fn after(&mut self, game: &mut Game, r: &mut Replayer<'_>, mark: usize) {
        if self.idle {
            return;
        }
        let span = r.span;
        self.event_hooks(game, r, span, mark, 0);
    }

    /// The end of a turn (after the status phase's clean-up, whose events start at `mark`).
    pub(super) fn turn_end(&mut self, game: &mut Game, r: &mut Replayer<'_>, turn: &ast::Turn, mark: usize) {
        if self.idle {
            return;
        }
        let span = turn.span;
        self.event_hooks(game, r, span, mark, 0);
        self.objectives_now(game, r, span, true);
        self.triggers(game, r, span);
        self.leftover_dice(r);
    }

    /// The end of the game: `on_game_end(game)`, then the `victory` block (or the result a script
    /// gave with `game.end_game`), into the summary.
    pub(super) fn game_end(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        summary: &mut Summary,
        last: Span,
    ) {
        if self.idle {
            return;
        }
        if r.stopped.is_none() {
            self.hook(game, r, last, "on_game_end", &[], 0);
        }
        summary.victory_points = self.sides.iter().map(|s| (s.clone(), self.vp(s))).collect();
        if r.stopped.is_none() {
            summary.result = match self.ended.clone() {
                Some(result) => Some(result),
                None => self.victory(game, r, last).map(|result| GameResult {
                    unfinished: self
                        .turns
                        .filter(|&turns| r.turn < turns)
                        .map(|turns| Unfinished { last_turn: r.turn, turns }),
                    ..result
                }),
            };
        }
        if self.untrusted {
            // Nothing that may depend on the clock becomes a result: no victory points, no result.
            summary.victory_points.clear();
            summary.result = None;
            let message = "no result: a scenario script was stopped by the wall-clock safety net, so this \
                           replay is not reproducible and its victory points and result cannot be trusted";
            r.find(last, Level::Error, message, NOT_REPRODUCIBLE);
        }
    }

    // ------------------------------------------------------------------ victory

    fn victory(&mut self, game: &Game, r: &mut Replayer<'_>, at: Span) -> Option<GameResult> {
        let conditions = self.victory.clone();
        for (i, v) in conditions.iter().enumerate() {
            let holds = match &v.condition {
                Condition::Held { objective, side, for_turns } => {
                    let held = self.objectives.iter().find(|o| o.name == objective.value);
                    match (held, for_turns) {
                        (Some(o), None) => o.holder.as_deref() == Some(side.value.as_str()),
                        (Some(o), Some(n)) => {
                            f64::from(o.best.get(&side.value).copied().unwrap_or(0)) >= n.value
                        }
                        (None, _) => false,
                    }
                }
                Condition::VictoryPoints { side, compare, value } => {
                    compares(self.vp(&side.value), compare.value, value.value)
                }
                Condition::BrigadesBroken { side, compare, value } => {
                    let broken = game
                        .state
                        .brigades
                        .iter()
                        .filter(|b| {
                            b.status == BrigadeStatus::Broken
                                && game.state.sides.get(b.side.0).is_some_and(|s| s.name == side.value)
                        })
                        .count();
                    compares(broken as f64, compare.value, value.value)
                }
                Condition::Script(_) => {
                    let snapshot = self.snapshot(game, r);
                    match self.scripts.condition(i, &snapshot) {
                        Some(Ok(b)) => b,
                        Some(Err(e)) => {
                            self.script_failed(r, at, &e);
                            false
                        }
                        None => false,
                    }
                }
                Condition::Otherwise => true,
            };
            if holds {
                let result = match &v.level {
                    Some(level) => format!("{} {}", v.winner.value, level.value),
                    None => v.winner.value.clone(),
                };
                let text = self.scenario_source.get(v.span.start..v.span.end).unwrap_or("");
                let by =
                    text.split("=>").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
                return Some(GameResult { result, by, unfinished: None });
            }
        }
        None
    }

    fn vp(&self, side: &str) -> f64 {
        held_vp(&self.objectives, &self.awarded, side)
    }

    // ------------------------------------------------------------------ objectives

    /// Who holds each objective now ([`HOLD_RADIUS`](crate::battlefield::HOLD_RADIUS)); at a turn's end the runs of turns held are
    /// counted too. A change of hands is an event and calls `on_objective_taken`.
    fn objectives_now(&mut self, game: &mut Game, r: &mut Replayer<'_>, span: Span, turn_end: bool) {
        let mut taken = Vec::new();
        for i in 0..self.objectives.len() {
            let holder = holder_of(game, self.objectives[i].at, self.objectives[i].within);
            let o = &mut self.objectives[i];
            if holder != o.holder {
                let text = match &holder {
                    Some(side) => format!("{} is held by {side}", o.name),
                    None => format!("no one holds {} now", o.name),
                };
                r.emit_at(span, [Event::new(What::Note { text }, OBJECTIVE_RULE)]);
                if let Some(side) = &holder {
                    taken.push((o.name.clone(), side.clone()));
                }
                o.holder = holder;
            }
            if turn_end {
                for side in &self.sides {
                    let run = o.streak.entry(side.clone()).or_default();
                    *run = if o.holder.as_deref() == Some(side.as_str()) { *run + 1 } else { 0 };
                    let run = *run;
                    let best = o.best.entry(side.clone()).or_default();
                    *best = (*best).max(run);
                }
            }
        }
        for (objective, side) in taken {
            self.hook(game, r, span, "on_objective_taken", &[&objective, &side], 0);
        }
    }

    // ------------------------------------------------------------------ calling scripts

    /// Run `f`; if it emitted events or findings, they are shown under a narrative step of their
    /// own at `span` (a turn or phase heading of the log).
    fn at_step(
        &mut self,
        r: &mut Replayer<'_>,
        span: Span,
        text: String,
        f: impl FnOnce(&mut Scripted, &mut Replayer<'_>),
    ) {
        let (events, findings, steps) = (r.events.len(), r.findings.len(), r.steps.len());
        f(self, r);
        if r.events.len() > events || r.findings.len() > findings {
            let line = r.line_of(span.start);
            r.steps.insert(steps, Step::Action { line, span, text, secret_of: Vec::new() });
        }
    }

    fn hook(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        span: Span,
        hook: &str,
        args: &[&str],
        depth: u32,
    ) {
        if !self.scripts.has_hook(hook) {
            return;
        }
        let snapshot = self.snapshot(game, r);
        let mut dice = self.take_dice(hook);
        let mut outcome = self.scripts.call_hook(hook, args, &snapshot, &mut dice);
        self.give_back(hook, dice);
        self.filled(r, hook, std::mem::take(&mut outcome.seeded));
        self.apply(game, r, span, hook, outcome, depth);
    }

    /// Faces the seed gave a hook or trigger: kept for the completed log, as a `scripted` line of
    /// the phase whose lines feed it (none at the game's end, when no phase is being played).
    fn filled(&self, r: &mut Replayer<'_>, name: &str, faces: Vec<u8>) {
        if faces.is_empty() {
            return;
        }
        if let Some(phase) = self.dice.phase {
            let label = format!("{SCRIPTED_LABEL}{name}");
            r.filled.push(super::Filled { span: phase, rolls: vec![(label, faces)] });
        }
    }

    fn triggers(&mut self, game: &mut Game, r: &mut Replayer<'_>, span: Span) {
        if !self.scripts.has_pending_triggers() {
            return;
        }
        // Issue 16: while every trigger still waiting is false again by its memo (the tutorial's
        // reads only the objectives), only the parts its memo read are copied from the game.
        let mut snapshot = None;
        if let Some(reads) = self.scripts.remembered_parts() {
            let partial = self.snapshot_parts(game, r, reads);
            let settled = self.scripts.all_remembered(&partial);
            if cfg!(debug_assertions) {
                // The dev profile copies the whole game too: the parts copied alone are the
                // whole snapshot's, and settle the triggers as it does.
                let seen = partial.parts(reads);
                drop(partial);
                let whole = self.snapshot(game, r);
                assert_eq!(whole.parts(reads), seen, "a snapshot's parts {reads:#b} copied alone");
                assert_eq!(self.scripts.all_remembered(&whole), settled, "the memos on the parts {reads:#b}");
                snapshot = Some(whole);
            } else if settled {
                snapshot = Some(partial);
            }
        }
        let snapshot = match snapshot {
            Some(snapshot) => snapshot,
            None => self.snapshot(game, r),
        };
        let mut faces: BTreeMap<String, VecDeque<u8>> =
            self.dice.by_name.iter_mut().map(|(name, (d, _))| (name.clone(), std::mem::take(d))).collect();
        let ran = self.scripts.run_triggers(&snapshot, &mut faces);
        for (name, left) in faces {
            if let Some((d, _)) = self.dice.by_name.get_mut(&name) {
                *d = left;
            }
        }
        for (name, faces) in self.scripts.take_condition_dice() {
            self.filled(r, &name, faces);
        }
        for (name, mut outcome) in ran {
            self.filled(r, &name, std::mem::take(&mut outcome.seeded));
            r.emit_at(
                span,
                [Event::new(What::Note { text: format!("trigger \"{name}\" fires") }, SCRIPT_RULE)],
            );
            self.apply(game, r, span, &name, outcome, 0);
        }
    }

    /// The hooks the events since `mark` call for, in the order of the events.
    fn event_hooks(&mut self, game: &mut Game, r: &mut Replayer<'_>, span: Span, mark: usize, depth: u32) {
        let mut calls: Vec<(&'static str, Vec<String>)> = Vec::new();
        for e in r.events.get(mark..).unwrap_or(&[]) {
            match &e.event.what {
                What::Removed { unit, because } if because.contains("rout") => {
                    calls.push(("on_unit_routed", vec![unit.clone()]))
                }
                What::Removed { unit, because } if because != "it left the table" => {
                    calls.push(("on_unit_destroyed", vec![unit.clone()]))
                }
                What::BrigadeChanged { brigade, to, .. } => {
                    calls.push(("on_brigade_state", vec![brigade.clone(), to.word().to_string()]))
                }
                What::LeaderCasualty { leader, rolled, result } => {
                    let id = game
                        .rules
                        .tables
                        .leader_result(*rolled)
                        .map_or(result.clone(), |row| row.meta.id.clone());
                    calls.push(("on_leader_hit", vec![leader.clone(), id]))
                }
                _ => {}
            }
        }
        for (hook, args) in calls {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            self.hook(game, r, span, hook, &args, depth);
        }
    }

    /// Apply what a script did, in order; then the hooks its own events call for.
    fn apply(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        span: Span,
        firing: &str,
        outcome: Outcome,
        depth: u32,
    ) {
        let mark = r.events.len();
        for effect in outcome.effects {
            self.apply_one(game, r, span, firing, effect, depth);
        }
        game.sync_bodies();
        if let Some(error) = outcome.error {
            self.script_failed(r, span, &error);
        }
        if depth < MAX_HOOK_DEPTH {
            self.event_hooks(game, r, span, mark, depth + 1);
        }
    }

    fn apply_one(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        span: Span,
        firing: &str,
        effect: Effect,
        depth: u32,
    ) {
        let note = |text: String| Event::new(What::Note { text }, SCRIPT_RULE);
        match effect {
            Effect::Log(text) => r.emit_at(span, [note(format!("{firing}: {text}"))]),
            Effect::Rolled(faces) => {
                let list: Vec<String> = faces.iter().map(u8::to_string).collect();
                r.emit_at(span, [note(format!("{firing} rolls [{}]", list.join(", ")))]);
            }
            Effect::Reinforce(name) => {
                let units: Vec<String> = match game.state.brigade_named(&name) {
                    Some(b) => game
                        .state
                        .units
                        .iter()
                        .filter(|u| u.brigade == Some(b))
                        .map(|u| u.name.clone())
                        .collect(),
                    None => vec![name.clone()],
                };
                for unit in units {
                    let arrival = game.book.arrivals.entry(unit).or_insert_with(|| super::command::Arrival {
                        turn: None,
                        written: "the scenario's script".into(),
                        at: None,
                        brigade: None,
                        facing: None,
                        formation: None,
                    });
                    if arrival.turn.is_none_or(|t| t > r.turn) {
                        arrival.turn = Some(r.turn);
                    }
                }
                r.emit_at(span, [note(format!("{name} may enter from turn {} ({firing})", r.turn))]);
            }
            Effect::Weather { aspect, condition } => {
                // dotc D18: the ground, the sky and the heat only with the weather module on.
                let on = !crate::engine::weather::Weather::of_the_module(&aspect)
                    || game.rules.module(dotc_lang::rulings::Module::Weather.name());
                if !on {
                    let message = format!(
                        "the script sets weather {aspect} {condition}, but the weather module (Ch13 21.0) is off: nothing changes"
                    );
                    return r.find(span, Level::Warning, message, "Ch13 21.0, dotc D18");
                }
                game.state.weather.set(&aspect, &condition);
                r.emit_at(span, [note(format!("the weather changes: {aspect} {condition} ({firing})"))]);
            }
            Effect::AddMarker { unit, marker } => set_marker(game, r, span, &unit, &marker, true),
            Effect::RemoveMarker { unit, marker } => set_marker(game, r, span, &unit, &marker, false),
            Effect::AwardVp { side, vp } => {
                *self.awarded.entry(side.clone()).or_default() += vp as f64;
                let points = if vp == 1 { "point" } else { "points" };
                r.emit_at(span, [note(format!("{side} is awarded {vp} victory {points} ({firing})"))]);
            }
            Effect::CasualtyCheck { leader, face } => {
                self.leader_roll(game, r, span, &leader, face, None);
            }
            Effect::KillLeader(leader) => self.leader_result(game, r, span, &leader, "killed", depth),
            Effect::WoundLeader { leader, result } => {
                self.leader_result(game, r, span, &leader, &result, depth)
            }
            Effect::EndGame { result, reason } => {
                r.emit_at(span, [note(format!("the scenario's script ends the game: {result} ({reason})"))]);
                if self.ended.is_none() {
                    self.ended =
                        Some(GameResult { result, by: format!("{firing}: {reason}"), unfinished: None });
                }
            }
        }
    }

    /// A script's `kill_leader` or `wound_leader`: that result of the leader casualty table
    /// (Ch16 2.4) applied through the engine with no roll, then `on_leader_hit(game, leader,
    /// result)` as for a hit from the rules. A hook that hits a leader again only reaches
    /// [`MAX_HOOK_DEPTH`] (and a removed leader cannot be hit twice), so it never recurses for
    /// ever.
    fn leader_result(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        span: Span,
        leader: &str,
        result: &str,
        depth: u32,
    ) {
        let row = game.rules.tables.leader_results.iter().find(|row| row.meta.id == result);
        let Some(face) = row.and_then(|row| u8::try_from(row.rolls.0).ok()) else {
            let message = format!("the rule data has no `{result}` leader result");
            r.find(span, Level::Error, message, "Ch16 2.4");
            return;
        };
        if game.state.leader_named(leader).and_then(|l| game.state.leader(l)).is_none_or(|l| l.removed) {
            return;
        }
        let hit = self.leader_roll(game, r, span, leader, face, Some(result));
        if hit && depth < MAX_HOOK_DEPTH {
            self.hook(game, r, span, "on_leader_hit", &[leader, result], depth + 1);
        }
    }

    /// A leader casualty roll with this face (Ch16 2.4, RULE-07-4.3); a result a script imposed
    /// (`imposed`) shows as that result alone, with no roll. Whether the leader was hit.
    fn leader_roll(
        &mut self,
        game: &mut Game,
        r: &mut Replayer<'_>,
        span: Span,
        leader: &str,
        face: u8,
        imposed: Option<&str>,
    ) -> bool {
        const RULE: &str = "Ch16 2.4, RULE-07-4.3";
        let Some(lid) = game.state.leader_named(leader) else { return false };
        let mut dice = RecordedDice::labelled([(Purpose::LeaderCasualty, vec![i64::from(face)])]);
        let mut events = Vec::new();
        let rules = &game.rules;
        match transact(&mut game.state, |s| morale::leader_casualty(rules, s, lid, &mut dice, &mut events)) {
            Ok(()) => {
                let hit = !events.is_empty();
                if let Some(result) = imposed
                    && hit
                {
                    // The hook is called by the caller, not from this event (no roll was made).
                    events.retain(|e| !matches!(e.what, What::Rolled { .. } | What::LeaderCasualty { .. }));
                    let text = match result {
                        "killed" => format!("{leader} is killed by the scenario's script"),
                        other => {
                            let title = rules
                                .tables
                                .leader_results
                                .iter()
                                .find(|row| row.meta.id == other)
                                .map_or(other.to_string(), |row| row.meta.title().to_string());
                            format!("{leader}: {title}, by the scenario's script")
                        }
                    };
                    events.insert(0, Event::new(What::Note { text }, RULE));
                }
                r.emit_at(span, events);
                hit
            }
            Err(e) => {
                r.find(span, Level::Error, format!("{leader}: {e}"), RULE);
                false
            }
        }
    }

    /// A script that failed: a finding at the log position where it ran, citing the hook or
    /// trigger and its place in the scenario file. One the wall clock stopped makes the whole
    /// replay untrusted.
    fn script_failed(&mut self, r: &mut Replayer<'_>, span: Span, error: &ScriptError) {
        let (line, column) = self.scenario_lines.line_col(&self.scenario_source, error.span.start);
        let message = format!("{} ({}:{line}:{column}): {}", error.what, self.scenario_file, error.message);
        let rule = match error.kind {
            ErrorKind::Script => SCRIPT_RULE,
            ErrorKind::WallClock => {
                self.untrusted = true;
                NOT_REPRODUCIBLE
            }
        };
        r.find(span, Level::Error, message, rule);
        if let Some(f) = r.findings.last_mut() {
            f.in_scenario = Some(error.span);
        }
    }

    // ------------------------------------------------------------------ dice

    /// Read a phase's `scripted` lines, after reporting what the last phase's left unused.
    fn load_dice(&mut self, r: &mut Replayer<'_>, phase: &ast::Phase) {
        if self.dice.phase == Some(phase.span) {
            return;
        }
        self.leftover_dice(r);
        self.dice.phase = Some(phase.span);
        for action in phase.actions.iter().filter(|a| a.verb.value == SCRIPTED_VERB) {
            let Some(name) = unit_arg(action) else { continue };
            let faces = action.args.iter().filter_map(|a| match a {
                ast::Arg::Roll(roll) => {
                    Some(roll.dice.value.iter().filter_map(|d| u8::try_from(d.value).ok()))
                }
                _ => None,
            });
            let entry = self.dice.by_name.entry(name.value.clone()).or_default();
            entry.0.extend(faces.flatten().filter(|f| (1..=6).contains(f)));
            entry.1.push(action.span);
        }
    }

    fn leftover_dice(&mut self, r: &mut Replayer<'_>) {
        for (name, (faces, spans)) in std::mem::take(&mut self.dice.by_name) {
            if !faces.is_empty() {
                let message = format!(
                    "{} dice recorded for \"{name}\" were not rolled by a hook or trigger of that name in this phase",
                    faces.len()
                );
                let span = spans.last().copied().unwrap_or_default();
                r.find(span, Level::Warning, message, SCRIPT_RULE);
            }
        }
        self.dice.phase = None;
    }

    fn take_dice(&mut self, name: &str) -> VecDeque<u8> {
        self.dice.by_name.get_mut(name).map(|(d, _)| std::mem::take(d)).unwrap_or_default()
    }

    fn give_back(&mut self, name: &str, left: VecDeque<u8>) {
        if let Some((d, _)) = self.dice.by_name.get_mut(name) {
            *d = left;
        }
    }

    // ------------------------------------------------------------------ views

    /// The game as scripts see it now. The view is refilled in place (issue 16: built afresh, it
    /// was a tenth of a long replay, most of it allocation): the scripts let go of the one they
    /// last saw, so the fields' strings and lists are reused.
    fn snapshot(&mut self, game: &Game, r: &Replayer<'_>) -> Arc<Snapshot> {
        self.snapshot_parts(game, r, u16::MAX)
    }

    /// The snapshot with only the parts `parts` names ([`part`] bits) brought up to date: the
    /// others are as an earlier call left them, for a caller that reads no more.
    fn snapshot_parts(&mut self, game: &Game, r: &Replayer<'_>, parts: u16) -> Arc<Snapshot> {
        self.scripts.release_snapshot();
        let view = Arc::make_mut(&mut self.view);
        let state = &game.state;
        let side_name =
            |id: crate::engine::state::SideId| state.sides.get(id.0).map_or("", |s| s.name.as_str());
        let has = |bit: u16| parts & bit != 0;
        if has(part::UNITS) {
            Self::units_view(view, game);
        }
        if has(part::BRIGADES) {
            view.brigades.resize_with(state.brigades.len(), BrigadeView::default);
            for (b, v) in state.brigades.iter().zip(view.brigades.iter_mut()) {
                v.name.clone_from(&b.name);
                set(&mut v.side, side_name(b.side));
                set(&mut v.state, b.status.word());
                v.losses = b.losses;
                v.starting_stands = b.starting_stands;
            }
        }
        if has(part::LEADERS) {
            Self::leaders_view(view, game);
        }
        if has(part::OBJECTIVES) {
            view.objectives.resize_with(self.objectives.len(), ObjectiveView::default);
            for (o, v) in self.objectives.iter().zip(view.objectives.iter_mut()) {
                v.name.clone_from(&o.name);
                set(&mut v.held_by, o.holder.as_deref().unwrap_or(""));
                v.vp = o.vp;
                v.held_turns.resize_with(o.streak.len(), Default::default);
                for ((side, n), (to, count)) in o.streak.iter().zip(v.held_turns.iter_mut()) {
                    to.clone_from(side);
                    *count = *n;
                }
            }
        }
        if has(part::TIME) {
            view.time.clear();
            if let (Some(start), Some(length)) = (self.start, self.turn_length) {
                use std::fmt::Write as _;
                let minutes = start + r.turn.saturating_sub(1) * length;
                let _ = write!(view.time, "{:02}:{:02}", (minutes / 60) % 24, minutes % 60);
            }
        }
        if has(part::TURN) {
            view.turn = r.turn;
        }
        if has(part::SIDE) {
            set(&mut view.side, &r.side);
        }
        if has(part::PHASE) {
            set(&mut view.phase, r.phase.word());
        }
        if has(part::SIDES) {
            view.sides.clone_from(&self.sides);
        }
        if has(part::VP) {
            view.vp.resize_with(self.sides.len(), Default::default);
            for (side, (name, vp)) in self.sides.iter().zip(view.vp.iter_mut()) {
                name.clone_from(side);
                *vp = held_vp(&self.objectives, &self.awarded, side);
            }
        }
        Arc::clone(&self.view)
    }

    /// The units' part of the snapshot.
    fn units_view(view: &mut Snapshot, game: &Game) {
        let state = &game.state;
        let side_name =
            |id: crate::engine::state::SideId| state.sides.get(id.0).map_or("", |s| s.name.as_str());
        view.units.resize_with(state.units.len(), UnitView::default);
        for (i, (u, v)) in state.units.iter().zip(view.units.iter_mut()).enumerate() {
            let on_table = u.on_table && !u.removed;
            v.name.clone_from(&u.name);
            set(&mut v.side, side_name(u.side));
            v.stands = u.stands;
            v.starting_stands = u.starting_stands;
            set(&mut v.health, super::narrative::health_word(&game.rules, state, UnitId(i)));
            let markers = state.marker_ids(UnitId(i));
            v.markers.truncate(markers.len());
            v.markers.resize_with(markers.len(), String::new);
            for (to, from) in v.markers.iter_mut().zip(markers) {
                set(to, from);
            }
            v.position = game.bodies.get(&UnitId(i)).filter(|_| on_table).map(|b| b.position);
            v.on_table = on_table;
            v.removed = u.removed;
            set(
                &mut v.brigade,
                u.brigade.and_then(|b| state.brigades.get(b.0)).map_or("", |b| b.name.as_str()),
            );
            v.due = game.book.arrivals.get(&u.name).and_then(|a| a.turn).unwrap_or(0);
        }
    }

    /// The leaders' part of the snapshot.
    fn leaders_view(view: &mut Snapshot, game: &Game) {
        let state = &game.state;
        let side_name =
            |id: crate::engine::state::SideId| state.sides.get(id.0).map_or("", |s| s.name.as_str());
        view.leaders.resize_with(state.leaders.len(), LeaderView::default);
        for (l, v) in state.leaders.iter().zip(view.leaders.iter_mut()) {
            v.name.clone_from(&l.name);
            set(&mut v.side, side_name(l.side));
            set(
                &mut v.rank,
                match l.rank {
                    crate::engine::state::LeaderRank::Brigadier => "brigadier",
                    crate::engine::state::LeaderRank::Colonel => "colonel",
                    crate::engine::state::LeaderRank::Commander => "commander",
                },
            );
            v.removed = l.removed;
            set(&mut v.attached, l.attached.and_then(|u| state.unit(u)).map_or("", |u| u.name.as_str()));
            v.position = game.leader_positions.get(&l.name).copied().filter(|_| !l.removed);
        }
    }
}

/// A side's victory points: the `vp` of the objectives it holds and what scripts awarded it.
fn held_vp(objectives: &[Held], awarded: &BTreeMap<String, f64>, side: &str) -> f64 {
    let held: f64 = objectives.iter().filter(|o| o.holder.as_deref() == Some(side)).map(|o| o.vp).sum();
    held + awarded.get(side).copied().unwrap_or(0.0)
}

/// Set `to` to `from`, keeping its buffer.
fn set(to: &mut String, from: &str) {
    to.clear();
    to.push_str(from);
}

#[cfg(test)]
thread_local! {
    /// The limits this thread's replays give scripts, for tests of a limit the defaults never reach
    /// in a test's time (the safety net); the defaults when None.
    static TEST_LIMITS: std::cell::Cell<Option<Limits>> = const { std::cell::Cell::new(None) };
}

/// The limits a game's scripts run under: the defaults, lowered by the scenario's
/// `script_limits`.
fn limits(scenario: &dotc_lang::ast::Scenario) -> Limits {
    #[cfg(test)]
    if let Some(limits) = TEST_LIMITS.with(std::cell::Cell::get) {
        return limits;
    }
    Limits::for_scenario(scenario)
}

/// The log verb that records a script's dice.
pub(super) const SCRIPTED_VERB: &str = "scripted";

/// How a [`super::Filled`] roll of a script is labelled: this, then the hook or trigger's name.
/// Its span is the phase whose `scripted` lines feed the script (see `complete.rs`).
pub(super) const SCRIPTED_LABEL: &str = "scripted ";

/// The side holding a point now: one of its formed units (on the table, its brigade not Broken)
/// has its Color Stand within `within` (see [`HOLD_RADIUS`](crate::battlefield::HOLD_RADIUS)) and no enemy unit on the table does.
fn holder_of(game: &Game, at: (f64, f64), within: f64) -> Option<String> {
    let mut near: Vec<(usize, bool)> = Vec::new();
    for (id, body) in &game.bodies {
        let Some(u) = game.state.unit(*id) else { continue };
        if !u.on_table || u.removed {
            continue;
        }
        let d = (body.position.0 - at.0).hypot(body.position.1 - at.1);
        if crate::geometry::measured(d) <= within {
            let formed = game.state.brigade_status(*id) != BrigadeStatus::Broken;
            near.push((u.side.0, formed));
        }
    }
    let (first, _) = *near.first()?;
    if near.iter().any(|(side, _)| *side != first) || !near.iter().any(|(_, formed)| *formed) {
        return None;
    }
    game.state.sides.get(first).map(|s| s.name.clone())
}

fn compares(left: f64, compare: Compare, right: f64) -> bool {
    match compare {
        Compare::AtLeast => left >= right,
        Compare::AtMost => left <= right,
        Compare::More => left > right,
        Compare::Less => left < right,
        Compare::Equal => (left - right).abs() < 1e-9,
    }
}

fn set_marker(game: &mut Game, r: &mut Replayer<'_>, span: Span, unit: &str, marker: &str, on: bool) {
    let Some(u) = game.state.unit_named(unit).and_then(|id| game.state.unit_mut(id)) else { return };
    let flag = match marker {
        "disorder" => &mut u.markers.disorder,
        "gunsmoke" => &mut u.markers.gunsmoke,
        "low_ammo" => &mut u.markers.low_ammo,
        "clean_barrels" => &mut u.markers.clean_barrels,
        _ => return,
    };
    if *flag == on {
        return;
    }
    *flag = on;
    let title =
        game.rules.data.marker(marker).map_or_else(|| marker.to_string(), |m| m.meta.title().to_string());
    let (unit, marker) = (unit.to_string(), title);
    let what = if on { What::MarkerPlaced { unit, marker } } else { What::MarkerRemoved { unit, marker } };
    r.emit_at(span, [Event::new(what, SCRIPT_RULE)]);
}

impl Replayer<'_> {
    /// Events at a given span of the log (a turn or phase heading, an action, a turn's end).
    fn emit_at(&mut self, span: Span, events: impl IntoIterator<Item = Event>) {
        let (saved, line) = (self.span, self.line);
        self.span = span;
        self.line = self.line_of(span.start);
        self.emit(events);
        self.span = saved;
        self.line = line;
    }
}

#[cfg(test)]
mod tests {
    use super::super::Level;
    use super::super::maneuver::tests::{DRILL, notes, play};
    use super::{Limits, NOT_REPRODUCIBLE, TEST_LIMITS};

    /// The drill field with a hook that awards a point every ten rounds of an endless loop, and a
    /// victory block that always gives a result.
    fn endless_awards() -> String {
        DRILL.replace(
            "side red \"Red\" {",
            "victory {\n        otherwise => draw\n    }\n    script ```rhai\n        fn on_turn_start(game) {\n            \
             let n = 0;\n            loop { n += 1; if n % 10 == 0 { game.award_vp(\"blue\", 1); } }\n        }\n    ```\n    \
             side red \"Red\" {",
        )
    }

    const TWO_TURNS: &str =
        "turn 1 blue {\n    maneuver {\n    }\n}\nturn 2 red {\n    maneuver {\n    }\n}\n";

    #[test]
    fn a_script_stopped_by_its_operation_limit_still_gives_the_game_a_result() {
        let (replay, _) = play(&endless_awards(), TWO_TURNS);
        let errors: Vec<&str> =
            replay.findings.iter().filter(|f| f.level == Level::Error).map(|f| f.message.as_str()).collect();
        assert_eq!(errors.len(), 2, "{errors:#?}");
        // Issue 15: every award is a line of the replay, counted against the output limit.
        assert!(errors.iter().all(|m| m.contains("more than 100 lines to the replay")), "{errors:#?}");
        assert!(
            replay.summary.victory_points.get("blue").is_some_and(|vp| *vp == 200.0),
            "{:?}",
            replay.summary
        );
        assert_eq!(replay.summary.result.as_ref().map(|r| r.result.as_str()), Some("draw"));
    }

    #[test]
    fn a_script_the_safety_net_stops_fails_the_replay_and_withholds_the_result() {
        // A safety net of no time fires at its second look at the clock, wherever that is: the
        // replay says so, drops what the call did, runs no script after it and gives no result.
        let limits = Limits {
            operations: 0,
            game_operations: 0,
            wall_clock: std::time::Duration::ZERO,
            ..Limits::default()
        };
        TEST_LIMITS.with(|l| l.set(Some(limits)));
        let (replay, _) = play(&endless_awards(), TWO_TURNS);
        TEST_LIMITS.with(|l| l.set(None));
        let untrusted: Vec<&str> = replay
            .findings
            .iter()
            .filter(|f| f.level == Level::Error && f.rule == NOT_REPRODUCIBLE)
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(untrusted.len(), 2, "{:#?}", replay.findings);
        assert!(untrusted[0].starts_with("hook on_turn_start (drill.dotc:"), "{untrusted:#?}");
        assert!(untrusted[0].contains("not reproducible"), "{untrusted:#?}");
        assert!(untrusted[1].starts_with("no result:"), "{untrusted:#?}");
        assert!(!notes(&replay).iter().any(|n| n.contains("awarded")), "{:#?}", notes(&replay));
        assert!(replay.summary.victory_points.is_empty(), "{:?}", replay.summary);
        assert_eq!(replay.summary.result, None);
    }

    #[test]
    fn an_objective_is_held_within_3_inches_unless_it_says_within() {
        // dotc's holding rule (HOLD_RADIUS): the 1st Foot's Color Stand at (16, 10) is 3.5" from
        // both objectives: too far for the one at the default 3", close enough for `within 4`.
        let scenario = DRILL.replace(
            "road \"Pike\" line (0, 18) (48, 18)",
            "road \"Pike\" line (0, 18) (48, 18)\n        objective \"Near Farm\" at (16, 13.5) vp 1\n        objective \"Far Farm\" at (16, 13.5) vp 2 within 4",
        );
        let (replay, _) = play(&scenario, "turn 1 blue {\n    maneuver {\n    }\n}\n");
        let notes = notes(&replay);
        assert!(notes.iter().any(|n| n == "Far Farm is held by blue"), "{notes:#?}");
        assert!(!notes.iter().any(|n| n.starts_with("Near Farm is held")), "{notes:#?}");
        assert_eq!(replay.summary.victory_points.get("blue").copied(), Some(2.0), "{:?}", replay.summary);
    }

    /// dotc D18: a script's change of the sky is in force only with the weather module on;
    /// with it off the script is told, where it ran, that nothing changes. The wind is the core
    /// rules' and changes either way.
    #[test]
    fn d18_a_script_changes_the_sky_only_with_the_weather_module_on() {
        let with = |aspect: &str, condition: &str, module: bool| {
            let rules = if module { "    rules {\n        module weather\n    }\n" } else { "" };
            DRILL.replace(
                "side red \"Red\" {",
                &format!(
                    "{rules}    script ```rhai\n        fn on_turn_start(game) {{ game.weather(\"{aspect}\", \"{condition}\"); }}\n    ```\n    side red \"Red\" {{"
                ),
            )
        };
        let (replay, _) = play(&with("sky", "drizzle", false), TWO_TURNS);
        let said: Vec<_> = replay
            .findings
            .iter()
            .filter(|f| f.message.starts_with("the script sets weather sky drizzle"))
            .collect();
        assert_eq!(said.len(), 2, "one a turn: {:#?}", replay.findings);
        assert!(said.iter().all(|f| f.level == Level::Warning && f.rule == "Ch13 21.0, dotc D18"));
        assert!(!notes(&replay).iter().any(|n| n.starts_with("the weather changes")));
        let (replay, _) = play(&with("sky", "drizzle", true), TWO_TURNS);
        assert!(notes(&replay).iter().any(|n| n.starts_with("the weather changes: sky drizzle")));
        assert!(
            !replay.findings.iter().any(|f| f.message.contains("weather module")),
            "{:#?}",
            replay.findings
        );
        let (replay, _) = play(&with("wind", "brisk", false), TWO_TURNS);
        assert!(notes(&replay).iter().any(|n| n.starts_with("the weather changes: wind brisk")));
    }
}
