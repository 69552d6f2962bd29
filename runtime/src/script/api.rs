//! What a script sees and what it may do: the `game` object.
//!
//! A script reads the game through views copied from the replay's state at the moment it is
//! called ([`Snapshot`]): changing a view (`u.stands = 0`) changes a copy and nothing else, and the
//! `game` object has no setters (`game.turn = 9` is a runtime error). It acts only through calls
//! that record an [`Effect`]; the replay applies the effects through the rules engine when the
//! call returns, so a script can never leave the game half changed. Its dice come from the game's
//! dice source: the log's `scripted "NAME" roll [..]` line for the hook or trigger that fires, or
//! the game's seed; never from ambient randomness.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, Map, NativeCallContext};

use super::Limits;
use super::sandbox::{Meter, Output, lock};
use crate::dice::{DiceSource, Purpose, SeededDice};

/// The most dice one `game.roll(n)` may ask for.
pub const MAX_SCRIPT_DICE: i64 = 100;

/// Marker ids a script may add or remove (the markers the engine carries, Ch16 5.4-5.7, 8.3, 11.0).
pub const SCRIPT_MARKERS: &[&str] = &["disorder", "gunsmoke", "low_ammo", "clean_barrels"];

/// The sizes of a win a victory result may name.
pub const RESULT_LEVELS: &[&str] = &["decisive", "major", "minor", "marginal"];

/// The game as a script sees it, copied from the replay's state when a hook or trigger runs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The game turn (RULINGS G7: one side's active sequence).
    pub turn: u32,
    /// The clock at the start of the turn, `10:30`; empty when the scenario has no clock.
    pub time: String,
    /// The active side's id.
    pub side: String,
    /// The phase word (`command` ... `status`).
    pub phase: String,
    /// Side ids in scenario order.
    pub sides: Vec<String>,
    pub units: Vec<UnitView>,
    pub brigades: Vec<BrigadeView>,
    pub leaders: Vec<LeaderView>,
    pub objectives: Vec<ObjectiveView>,
    /// Each side's victory points now: the `vp` of the objectives it holds plus what scripts
    /// awarded, in side order.
    pub vp: Vec<(String, f64)>,
}

/// The parts of a [`Snapshot`] a script call read, as bits ([`Ctx::reads`]): all that a trigger
/// condition's answer can depend on, so a condition that acted in no way gives the same answer
/// again while these parts stay the same (issue 16, `Scripts::run_triggers`).
pub(crate) mod part {
    pub const TURN: u16 = 1;
    pub const TIME: u16 = 1 << 1;
    pub const SIDE: u16 = 1 << 2;
    pub const PHASE: u16 = 1 << 3;
    pub const SIDES: u16 = 1 << 4;
    pub const UNITS: u16 = 1 << 5;
    pub const BRIGADES: u16 = 1 << 6;
    pub const LEADERS: u16 = 1 << 7;
    pub const OBJECTIVES: u16 = 1 << 8;
    pub const VP: u16 = 1 << 9;
}

impl Snapshot {
    /// A copy of the parts `reads` names ([`part`]), the others left empty.
    pub(crate) fn parts(&self, reads: u16) -> Snapshot {
        // Destructured, so a field added to the snapshot must be given a part here.
        let Snapshot { turn, time, side, phase, sides, units, brigades, leaders, objectives, vp } = self;
        let has = |bit: u16| reads & bit != 0;
        Snapshot {
            turn: if has(part::TURN) { *turn } else { 0 },
            time: if has(part::TIME) { time.clone() } else { String::new() },
            side: if has(part::SIDE) { side.clone() } else { String::new() },
            phase: if has(part::PHASE) { phase.clone() } else { String::new() },
            sides: if has(part::SIDES) { sides.clone() } else { Vec::new() },
            units: if has(part::UNITS) { units.clone() } else { Vec::new() },
            brigades: if has(part::BRIGADES) { brigades.clone() } else { Vec::new() },
            leaders: if has(part::LEADERS) { leaders.clone() } else { Vec::new() },
            objectives: if has(part::OBJECTIVES) { objectives.clone() } else { Vec::new() },
            vp: if has(part::VP) { vp.clone() } else { Vec::new() },
        }
    }

    /// Whether the parts `reads` names ([`part`]) are the same in both snapshots.
    pub(crate) fn same_parts(&self, other: &Snapshot, reads: u16) -> bool {
        let Snapshot { turn, time, side, phase, sides, units, brigades, leaders, objectives, vp } = self;
        let differs = |bit: u16, same: bool| reads & bit != 0 && !same;
        !(differs(part::TURN, *turn == other.turn)
            || differs(part::TIME, *time == other.time)
            || differs(part::SIDE, *side == other.side)
            || differs(part::PHASE, *phase == other.phase)
            || differs(part::SIDES, *sides == other.sides)
            || differs(part::UNITS, *units == other.units)
            || differs(part::BRIGADES, *brigades == other.brigades)
            || differs(part::LEADERS, *leaders == other.leaders)
            || differs(part::OBJECTIVES, *objectives == other.objectives)
            || differs(part::VP, *vp == other.vp))
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnitView {
    pub name: String,
    pub side: String,
    pub stands: u32,
    pub starting_stands: u32,
    /// `fresh`, `worn`, `spent`, `shattered` (Ch16 8.1); a battery is `limbered` or `unlimbered`;
    /// a unit off the table for good is `removed`.
    pub health: String,
    pub markers: Vec<String>,
    /// The Color Stand's position, when the unit is on the table.
    pub position: Option<(f64, f64)>,
    pub on_table: bool,
    pub removed: bool,
    /// Its brigade's name, or "" for a unit outside any brigade.
    pub brigade: String,
    /// For a reinforcement: the turn from which it may enter (its schedule, or the turn a script
    /// called it up); 0 for a unit that starts on the table.
    pub due: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BrigadeView {
    pub name: String,
    pub side: String,
    /// `fresh`, `hesitant` or `broken` (Ch16 8.2).
    pub state: String,
    pub losses: u32,
    pub starting_stands: u32,
}

/// A leader, as `game.leader(name)` gives him: his fields, and `casualty_check()`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeaderView {
    pub name: String,
    pub side: String,
    /// `brigadier`, `colonel` or `commander`.
    pub rank: String,
    pub removed: bool,
    /// The regiment whose Color Stand he is with, or "".
    pub attached: String,
    /// Where he stands, while he is on the table (dotc D45: a leader with no place at the start
    /// has none until he comes on).
    pub position: Option<(f64, f64)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ObjectiveView {
    pub name: String,
    /// The side that holds it now, or "" (see `crate::replay` objectives, [`super::HOLD_RADIUS`]).
    pub held_by: String,
    pub vp: f64,
    /// Each side's run of turns in a row it has held the objective, counted at every turn's end
    /// (0 once it lost it, or never held it).
    pub held_turns: Vec<(String, u32)>,
}

/// What a script asked the game to do, in the order it asked. The replay applies each one.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// `game.log(msg)`, `print(msg)`, `debug(msg)` (within the output limits, [`Limits::output_lines`]).
    Log(String),
    /// `game.roll(n)`: the faces it gave the script.
    Rolled(Vec<u8>),
    /// `game.reinforce(name)`: a unit or every unit of a brigade may enter from this turn.
    Reinforce(String),
    /// `game.weather(aspect, condition)` (Ch13 21.0).
    Weather {
        aspect: String,
        condition: String,
    },
    AddMarker {
        unit: String,
        marker: String,
    },
    RemoveMarker {
        unit: String,
        marker: String,
    },
    AwardVp {
        side: String,
        vp: i64,
    },
    /// `game.leader(name).casualty_check()`: a roll on the leader casualty table (Ch16 2.4) with
    /// this face.
    CasualtyCheck {
        leader: String,
        face: u8,
    },
    KillLeader(String),
    /// `game.wound_leader(name)` or `game.wound_leader(name, result)`: that leader casualty
    /// result (Ch16 2.4) applied with no roll; `severely_wounded` unless another is named.
    WoundLeader {
        leader: String,
        result: String,
    },
    /// `game.end_game(result, reason)`: `draw` or `SIDE LEVEL`.
    EndGame {
        result: String,
        reason: String,
    },
}

/// The dice of the hook or trigger now running: the faces its `scripted` log lines recorded in
/// this phase, then the game's seeded stream.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct ScriptDice {
    pub logged: VecDeque<u8>,
    pub seeded: Option<SeededDice>,
    /// The faces the seed gave in the call now running, for a completed log.
    pub filled: Vec<u8>,
}

impl ScriptDice {
    fn roll(&mut self, firing: &str, n: usize, purpose: Purpose) -> Result<Vec<u8>, String> {
        if self.logged.len() >= n {
            return Ok(self.logged.drain(..n).collect());
        }
        if !self.logged.is_empty() {
            return Err(format!(
                "{firing} rolls {n} dice but its `scripted` log line records {}",
                self.logged.len()
            ));
        }
        match &mut self.seeded {
            Some(seeded) => {
                let faces = seeded.roll(purpose, n).map_err(|e| e.to_string())?;
                self.filled.extend_from_slice(&faces);
                Ok(faces)
            }
            None => Err(format!(
                "{firing} rolls dice, but the log records none for it (`scripted \"{firing}\" roll [..]`) \
                 and the game has no `seed`"
            )),
        }
    }
}

/// What the registered functions share with the caller: the views, the effects so far, and the
/// dice.
#[derive(Debug, Default)]
pub(crate) struct Ctx {
    pub snapshot: Arc<Snapshot>,
    /// The parts of the snapshot the call now running has read ([`part`]).
    pub reads: u16,
    pub effects: Vec<Effect>,
    /// The hook or trigger running, for messages and dice.
    pub firing: String,
    pub dice: ScriptDice,
    /// The leader casualty table (Ch16 2.4): each face's result id, from the rule data.
    pub leader_results: Vec<(u8, String)>,
    /// What the game's scripts have written, against the output limits.
    pub output: Output,
    pub limits: Limits,
    /// Told when a message goes past an output limit, so the call's next operation stops it.
    pub meter: Arc<Meter>,
}

impl Ctx {
    /// The snapshot, its parts `bits` ([`part`]) counted as read by the call now running.
    fn read(&mut self, bits: u16) -> &Snapshot {
        self.reads |= bits;
        &self.snapshot
    }

    /// `print` or `debug` through rhai's callback: a message of the game, unless it goes past an
    /// output limit (then it is dropped and the call stops at its next operation). The `print`
    /// and `debug` of [`register`] check the limits first, so this only stops what they do not
    /// cover.
    pub fn write(&mut self, text: String) {
        if self.record(Effect::Log(text)).is_err() {
            self.meter.output_over.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Every effect a script makes, counted against the output limits (issue 15): one line of
    /// the replay and its bytes. Past a limit it is dropped and the call stops right there, at
    /// the call that made it (rhai fills in its position).
    pub fn record(&mut self, effect: Effect) -> Fallible<()> {
        if self.output.write(effect.bytes(), &self.limits) {
            self.effects.push(effect);
            Ok(())
        } else {
            Err(output_stop())
        }
    }

    /// Would a message of `bytes` go past an output limit? (`print` asks before rhai writes.)
    fn output_full(&mut self, bytes: usize) -> bool {
        !self.output.fits(bytes, &self.limits)
    }
}

/// The error that stops a call at the effect that went past an output limit.
fn output_stop() -> Box<EvalAltResult> {
    super::sandbox::stop(super::sandbox::OUTPUT_LIMIT)
}

impl Effect {
    /// Its size in the replay, in bytes: what it counts against the output limits.
    pub fn bytes(&self) -> usize {
        match self {
            Effect::Log(text) | Effect::Reinforce(text) | Effect::KillLeader(text) => text.len(),
            Effect::Rolled(faces) => 3 * faces.len(),
            Effect::Weather { aspect: a, condition: b }
            | Effect::AddMarker { unit: a, marker: b }
            | Effect::RemoveMarker { unit: a, marker: b }
            | Effect::WoundLeader { leader: a, result: b }
            | Effect::EndGame { result: a, reason: b } => a.len() + b.len(),
            Effect::AwardVp { side, .. } => side.len() + 5,
            Effect::CasualtyCheck { leader, .. } => leader.len() + 1,
        }
    }
}

/// The `game` object: a handle with no state of its own; every read goes to the snapshot.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameHandle;

type Fallible<T> = Result<T, Box<EvalAltResult>>;

fn text(s: &str) -> Dynamic {
    Dynamic::from(s.to_string())
}

fn unit_map(u: &UnitView) -> Map {
    let mut m = Map::new();
    m.insert("name".into(), text(&u.name));
    m.insert("side".into(), text(&u.side));
    m.insert("stands".into(), Dynamic::from(INT::from(u.stands)));
    m.insert("starting_stands".into(), Dynamic::from(INT::from(u.starting_stands)));
    m.insert("health".into(), text(&u.health));
    let markers: Array = u.markers.iter().map(|s| text(s)).collect();
    m.insert("markers".into(), Dynamic::from_array(markers));
    let (x, y) = match u.position {
        Some((x, y)) => (Dynamic::from_float(x), Dynamic::from_float(y)),
        None => (Dynamic::UNIT, Dynamic::UNIT),
    };
    m.insert("x".into(), x);
    m.insert("y".into(), y);
    m.insert("on_table".into(), Dynamic::from_bool(u.on_table));
    m.insert("removed".into(), Dynamic::from_bool(u.removed));
    m.insert("brigade".into(), text(&u.brigade));
    m.insert("due".into(), Dynamic::from(INT::from(u.due)));
    m
}

fn brigade_map(b: &BrigadeView) -> Map {
    let mut m = Map::new();
    m.insert("name".into(), text(&b.name));
    m.insert("side".into(), text(&b.side));
    m.insert("state".into(), text(&b.state));
    m.insert("losses".into(), Dynamic::from(INT::from(b.losses)));
    m.insert("starting_stands".into(), Dynamic::from(INT::from(b.starting_stands)));
    m
}

fn objective_map(o: &ObjectiveView) -> Map {
    let mut m = Map::new();
    m.insert("name".into(), text(&o.name));
    m.insert("held_by".into(), text(&o.held_by));
    m.insert("vp".into(), Dynamic::from_float(o.vp));
    m
}

fn no_such(what: &str, name: &str) -> Box<EvalAltResult> {
    format!("no {what} named \"{name}\" in this game").into()
}

fn known_side(snapshot: &Snapshot, side: &str) -> Fallible<()> {
    if snapshot.sides.iter().any(|s| s == side) {
        Ok(())
    } else {
        Err(format!("no side `{side}` in this game (the sides are {})", snapshot.sides.join(", ")).into())
    }
}

/// Register the `game` object, the leader view and their functions.
pub(crate) fn register(engine: &mut Engine, ctx: &Arc<Mutex<Ctx>>) {
    engine.register_type_with_name::<GameHandle>("Game");
    engine.register_type_with_name::<LeaderView>("Leader");

    let c = ctx.clone();
    engine.register_get("turn", move |_: &mut GameHandle| INT::from(lock(&c).read(part::TURN).turn));
    let c = ctx.clone();
    engine.register_get("time", move |_: &mut GameHandle| lock(&c).read(part::TIME).time.clone());
    let c = ctx.clone();
    engine.register_get("side", move |_: &mut GameHandle| lock(&c).read(part::SIDE).side.clone());
    let c = ctx.clone();
    engine.register_get("phase", move |_: &mut GameHandle| lock(&c).read(part::PHASE).phase.clone());

    let c = ctx.clone();
    engine.register_fn("unit", move |_: &mut GameHandle, name: &str| -> Fallible<Map> {
        let mut ctx = lock(&c);
        ctx.read(part::UNITS)
            .units
            .iter()
            .find(|u| u.name == name)
            .map(unit_map)
            .ok_or_else(|| no_such("unit", name))
    });
    let c = ctx.clone();
    engine.register_fn("units", move |_: &mut GameHandle| -> Array {
        lock(&c).read(part::UNITS).units.iter().map(|u| Dynamic::from_map(unit_map(u))).collect()
    });
    let c = ctx.clone();
    engine.register_fn("brigade", move |_: &mut GameHandle, name: &str| -> Fallible<Map> {
        let mut ctx = lock(&c);
        let found = ctx.read(part::BRIGADES).brigades.iter().find(|b| b.name == name);
        found.map(brigade_map).ok_or_else(|| no_such("brigade", name))
    });
    let c = ctx.clone();
    engine.register_fn("brigades", move |_: &mut GameHandle| -> Array {
        lock(&c).read(part::BRIGADES).brigades.iter().map(|b| Dynamic::from_map(brigade_map(b))).collect()
    });
    let c = ctx.clone();
    engine.register_fn("broken", move |_: &mut GameHandle, side: &str| -> Fallible<INT> {
        let mut ctx = lock(&c);
        known_side(ctx.read(part::SIDES | part::BRIGADES), side)?;
        let n = ctx.snapshot.brigades.iter().filter(|b| b.side == side && b.state == "broken").count();
        Ok(INT::try_from(n).unwrap_or(INT::MAX))
    });
    let c = ctx.clone();
    engine.register_fn("leader", move |_: &mut GameHandle, name: &str| -> Fallible<LeaderView> {
        let mut ctx = lock(&c);
        let found = ctx.read(part::LEADERS).leaders.iter().find(|l| l.name == name);
        found.cloned().ok_or_else(|| no_such("leader", name))
    });
    let c = ctx.clone();
    engine.register_fn("objective", move |_: &mut GameHandle, name: &str| -> Fallible<Map> {
        let mut ctx = lock(&c);
        let found = ctx.read(part::OBJECTIVES).objectives.iter().find(|o| o.name == name);
        found.map(objective_map).ok_or_else(|| no_such("objective", name))
    });
    let c = ctx.clone();
    engine.register_fn(
        "held_turns",
        move |_: &mut GameHandle, objective: &str, side: &str| -> Fallible<INT> {
            let mut ctx = lock(&c);
            known_side(ctx.read(part::SIDES | part::OBJECTIVES), side)?;
            let o = ctx.snapshot.objectives.iter().find(|o| o.name == objective);
            let o = o.ok_or_else(|| no_such("objective", objective))?;
            Ok(o.held_turns.iter().find(|(s, _)| s == side).map_or(0, |(_, n)| INT::from(*n)))
        },
    );
    let c = ctx.clone();
    engine.register_fn("vp", move |_: &mut GameHandle, side: &str| -> Fallible<rhai::FLOAT> {
        let mut ctx = lock(&c);
        known_side(ctx.read(part::SIDES | part::VP), side)?;
        Ok(ctx.snapshot.vp.iter().find(|(s, _)| s == side).map_or(0.0, |(_, vp)| *vp))
    });

    // Leader views: read-only fields and the casualty roll.
    engine.register_get("name", |l: &mut LeaderView| l.name.clone());
    engine.register_get("side", |l: &mut LeaderView| l.side.clone());
    engine.register_get("rank", |l: &mut LeaderView| l.rank.clone());
    engine.register_get("removed", |l: &mut LeaderView| l.removed);
    engine.register_get("attached", |l: &mut LeaderView| l.attached.clone());
    engine.register_get("on_table", |l: &mut LeaderView| l.position.is_some() && !l.removed);
    engine.register_get("x", |l: &mut LeaderView| {
        l.position.map_or(Dynamic::UNIT, |(x, _)| Dynamic::from_float(x))
    });
    engine.register_get("y", |l: &mut LeaderView| {
        l.position.map_or(Dynamic::UNIT, |(_, y)| Dynamic::from_float(y))
    });
    let c = ctx.clone();
    engine.register_fn("casualty_check", move |l: &mut LeaderView| -> Fallible<String> {
        let mut ctx = lock(&c);
        if l.removed {
            return Ok(String::new());
        }
        let firing = ctx.firing.clone();
        let face = ctx.dice.roll(&firing, 1, Purpose::LeaderCasualty)?.first().copied().unwrap_or(1);
        let result = ctx.leader_results.iter().find(|(f, _)| *f == face).map(|(_, id)| id.clone());
        ctx.record(Effect::CasualtyCheck { leader: l.name.clone(), face })?;
        Ok(result.unwrap_or_default())
    });

    // Actions: each records an effect for the replay to apply.
    let c = ctx.clone();
    engine.register_fn("reinforce", move |_: &mut GameHandle, name: &str| -> Fallible<()> {
        let mut ctx = lock(&c);
        let s = ctx.read(part::UNITS | part::BRIGADES);
        let known = s.units.iter().any(|u| u.name == name) || s.brigades.iter().any(|b| b.name == name);
        if !known && !ctx.read(part::LEADERS).leaders.iter().any(|l| l.name == name && l.rank == "commander")
        {
            return Err(no_such("unit, brigade or commander", name));
        }
        ctx.record(Effect::Reinforce(name.to_string()))
    });
    let c = ctx.clone();
    engine.register_fn("weather", move |_: &mut GameHandle, aspect: &str, condition: &str| -> Fallible<()> {
        let Some((_, conditions)) = dotc_lang::rulings::WEATHER.iter().find(|(a, _)| *a == aspect) else {
            let aspects: Vec<&str> = dotc_lang::rulings::WEATHER.iter().map(|(a, _)| *a).collect();
            return Err(
                format!("no weather aspect `{aspect}` (the aspects are {})", aspects.join(", ")).into()
            );
        };
        if !conditions.contains(&condition) {
            return Err(
                format!("`{condition}` is no {aspect} condition (try {})", conditions.join(", ")).into()
            );
        }
        let effect = Effect::Weather { aspect: aspect.to_string(), condition: condition.to_string() };
        lock(&c).record(effect)
    });
    for (name, add) in [("add_marker", true), ("remove_marker", false)] {
        let c = ctx.clone();
        engine.register_fn(name, move |_: &mut GameHandle, unit: &str, marker: &str| -> Fallible<()> {
            let mut ctx = lock(&c);
            if !ctx.read(part::UNITS).units.iter().any(|u| u.name == unit) {
                return Err(no_such("unit", unit));
            }
            if !SCRIPT_MARKERS.contains(&marker) {
                return Err(format!("no marker `{marker}` (try {})", SCRIPT_MARKERS.join(", ")).into());
            }
            let (unit, marker) = (unit.to_string(), marker.to_string());
            ctx.record(if add {
                Effect::AddMarker { unit, marker }
            } else {
                Effect::RemoveMarker { unit, marker }
            })
        });
    }
    let c = ctx.clone();
    engine.register_fn("award_vp", move |_: &mut GameHandle, side: &str, vp: INT| -> Fallible<()> {
        let mut ctx = lock(&c);
        known_side(ctx.read(part::SIDES), side)?;
        if !(-1000..=1000).contains(&vp) {
            return Err(format!("{vp} victory points is more than any scenario awards").into());
        }
        ctx.record(Effect::AwardVp { side: side.to_string(), vp })
    });
    let c = ctx.clone();
    engine.register_fn("kill_leader", move |_: &mut GameHandle, name: &str| -> Fallible<()> {
        let mut ctx = lock(&c);
        if !ctx.read(part::LEADERS).leaders.iter().any(|l| l.name == name) {
            return Err(no_such("leader", name));
        }
        ctx.record(Effect::KillLeader(name.to_string()))
    });
    for with_result in [false, true] {
        let c = ctx.clone();
        let wound = move |name: &str, result: &str| -> Fallible<()> {
            let mut ctx = lock(&c);
            if !ctx.read(part::LEADERS).leaders.iter().any(|l| l.name == name) {
                return Err(no_such("leader", name));
            }
            if !ctx.leader_results.iter().any(|(_, id)| id == result) || result == "killed" {
                let mut ids: Vec<&str> = ctx.leader_results.iter().map(|(_, id)| id.as_str()).collect();
                ids.dedup();
                ids.retain(|id| *id != "killed");
                return Err(format!(
                    "`{result}` is no leader casualty result to wound with (Ch16 2.4: {}; use kill_leader to kill)",
                    ids.join(", ")
                )
                .into());
            }
            ctx.record(Effect::WoundLeader { leader: name.to_string(), result: result.to_string() })
        };
        if with_result {
            engine.register_fn("wound_leader", move |_: &mut GameHandle, name: &str, result: &str| {
                wound(name, result)
            });
        } else {
            engine.register_fn("wound_leader", move |_: &mut GameHandle, name: &str| {
                wound(name, "severely_wounded")
            });
        }
    }
    let c = ctx.clone();
    engine.register_fn("end_game", move |_: &mut GameHandle, result: &str, reason: &str| -> Fallible<()> {
        let mut ctx = lock(&c);
        let words: Vec<&str> = result.split_whitespace().collect();
        let valid = match words.as_slice() {
            ["draw"] => true,
            [side, level] => {
                ctx.read(part::SIDES).sides.iter().any(|s| s == side) && RESULT_LEVELS.contains(level)
            }
            _ => false,
        };
        if !valid {
            return Err(format!(
                "`{result}` is not a result: write \"draw\" or a side and a level ({}), e.g. \"{} major\"",
                RESULT_LEVELS.join(", "),
                ctx.snapshot.sides.first().map_or("union", String::as_str)
            )
            .into());
        }
        ctx.record(Effect::EndGame { result: words.join(" "), reason: reason.to_string() })
    });
    let c = ctx.clone();
    engine.register_fn("roll", move |_: &mut GameHandle, n: INT| -> Fallible<Array> {
        if !(1..=MAX_SCRIPT_DICE).contains(&n) {
            return Err(
                format!("game.roll({n}): a script rolls 1 to {MAX_SCRIPT_DICE} dice at a time").into()
            );
        }
        let mut ctx = lock(&c);
        let firing = ctx.firing.clone();
        if ctx.output_full(3 * usize::try_from(n).unwrap_or(1)) {
            return Err(output_stop());
        }
        let faces = ctx.dice.roll(&firing, usize::try_from(n).unwrap_or(1), Purpose::Friction)?;
        ctx.record(Effect::Rolled(faces.clone()))?;
        Ok(faces.into_iter().map(|f| Dynamic::from(INT::from(f))).collect())
    });
    let c = ctx.clone();
    engine.register_fn("log", move |_: &mut GameHandle, message: Dynamic| -> Fallible<()> {
        lock(&c).record(Effect::Log(message.to_string()))
    });
    register_print(engine, ctx);
}

/// `print` and `debug` for the values a script has: each checks the output limits before rhai
/// hands its text to the game, so a message past a limit stops the call at that `print`, not at
/// the operation after it (issue 15), whatever the type of the value. [`Ctx::write`] stays as the
/// net behind them.
fn register_print(engine: &mut Engine, ctx: &Arc<Mutex<Ctx>>) {
    fn checked<T: Clone + Send + Sync + 'static>(
        engine: &mut Engine,
        ctx: &Arc<Mutex<Ctx>>,
        keyword: &'static str,
    ) {
        let c = ctx.clone();
        let format = if keyword == "print" { "to_string" } else { "to_debug" };
        engine.register_fn(keyword, move |call: NativeCallContext, value: T| -> Fallible<ImmutableString> {
            let text = call.call_native_fn::<ImmutableString>(format, (value,))?;
            if lock(&c).output_full(text.len()) {
                return Err(output_stop());
            }
            Ok(text)
        });
    }
    for keyword in ["print", "debug"] {
        checked::<ImmutableString>(engine, ctx, keyword);
        checked::<INT>(engine, ctx, keyword);
        checked::<rhai::FLOAT>(engine, ctx, keyword);
        checked::<bool>(engine, ctx, keyword);
        checked::<char>(engine, ctx, keyword);
        checked::<()>(engine, ctx, keyword);
        checked::<Array>(engine, ctx, keyword);
        checked::<Map>(engine, ctx, keyword);
        // Every other type (the game's views, ranges, units): rhai tries the exact types first.
        checked::<Dynamic>(engine, ctx, keyword);
    }
}
