//! Replay of the status verbs (Phase 5, Ch16 1.0) and the end of each turn.
//!
//! - `rally`: a command rally, bought with pips (`pip "Brigadier"`), in Phase 1 or Phase 5
//!   (RULE-07-3.2, Ch16 8.3), or a natural rally on a die in Phase 5 (RULE-07-3.3).
//! - `clear_smoke`: a Gunsmoke marker taken off by hand, which must be one the rules clear now
//!   (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11).
//! - `reform`: a rested regiment sheds its micro-hit (RULE-07-3.5, Ch12 5.0) after two
//!   consecutive turns of its own side spent still, unengaged, out of enemy sight and beyond 12"
//!   of every enemy.
//! - At each turn's end: smoke clears, brigades are checked (RULINGS C12), every unit of a
//!   brigade already Broken when the turn began must have retreated (Ch16 8.2, RULE-07-2.4), a
//!   Dress on the Colors push must have had its regiments (Ch16 2.3), and each unit's rest toward
//!   reforming is counted.
//!
//! [`Ledger`] is what these replays (and the fire and assault replays) remember from one action
//! or turn to the next.

use std::collections::{BTreeMap, BTreeSet};

use geo::Distance;

use super::*;
use crate::engine::events::BrigadeStatus;
use crate::engine::state::BrigadeId;

/// What kind of enemy action a reaction answers (Ch16 6.0): a charge (Reactions 1 and 5) or a
/// move (Reactions 2, 3 and 4). RULINGS C33: one reaction per triggering action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Trigger {
    Charge,
    Move,
}

/// A Dress on the Colors push of one brigade in one turn (Ch16 2.3).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Push {
    /// Where the first regiment's assault was logged.
    pub span: Span,
    /// Its regiments, each where it stood when it declared its charge.
    pub members: Vec<(UnitId, Body)>,
}

/// What the fire, assault and status replays carry from one action, or turn, to the next.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Ledger {
    /// Module july_sun (Ch13 11.0): the last turn each infantry regiment double-timed or
    /// assaulted.
    pub exertion: BTreeMap<UnitId, u32>,
    /// Units that fired an Opportunity Fire reaction, with the turn they did (RULE-05-1.2).
    pub opportunity: BTreeMap<UnitId, u32>,
    /// Reactions declared, by (turn, triggering unit, kind of trigger): the reacting unit
    /// (RULINGS C33).
    pub reactions: BTreeMap<(u32, UnitId, Trigger), UnitId>,
    /// Counter-charges declared and waiting for the charge they answer: (turn, reactor, charger).
    pub counter_charges: Vec<(u32, UnitId, UnitId)>,
    /// Flanks refused: (turn, the refusing unit, the enemy it refused against) (Ch16 6.0).
    pub refused: Vec<(u32, UnitId, UnitId)>,
    /// Melee victors and the turn of their victory, with whether the free move is used
    /// (Ch16 7.4).
    pub consolidations: BTreeMap<UnitId, (u32, bool)>,
    /// Attackers entitled to a sweeping advance: turn, inches, pip price, used (Ch16 7.4, G14).
    pub breakthroughs: BTreeMap<UnitId, (u32, f64, u32, bool)>,
    /// Dress on the Colors pushes by turn and brigade (Ch16 2.3).
    pub pushes: BTreeMap<(u32, BrigadeId), Push>,
    /// Rest toward reforming: consecutive turns of its own side the unit has rested
    /// (RULE-07-3.5, RULINGS G7).
    pub rest: BTreeMap<UnitId, u32>,
    /// Where every unit stood and how each brigade stood at the end of the last turn (for the
    /// Broken brigade's retreat, Ch16 8.2).
    pub last_turn: Option<(BTreeMap<UnitId, Body>, Vec<BrigadeStatus>)>,
}

/// Whether each enemy sees each unit, as [`Game::count_rest`] last asked the battlefield, with
/// the bodies and weather limit it asked with (issue 16: a line of sight is the costly test, and
/// a unit at rest and the enemies that do not move are asked the same question every turn).
/// The answer is a function of the two bodies, the weather limit and the battlefield, whose
/// only change in a game is a building's damage and collapse: a change there forgets every
/// answer. So the memo is never stale, whatever the game's history.
#[derive(Clone, Debug, Default)]
pub(super) struct RestSight {
    /// The buildings' damage and collapse when the answers were found.
    buildings: Vec<(u32, bool)>,
    /// By (enemy, unit): what it was asked from, and whether the enemy sees the unit, for the
    /// last [`SEEN_KEPT`] questions, oldest first (a unit stepping back and forth asks two).
    seen: BTreeMap<(UnitId, UnitId), Vec<(SeenFrom, bool)>>,
}

/// How many answers [`RestSight`] keeps for each enemy and unit. dotc's own, not a rule.
const SEEN_KEPT: usize = 4;

/// What [`RestSight`] asked a line of sight from: the enemy's body, the unit's, the weather limit.
type SeenFrom = (Body, Body, Option<f64>);

impl Game {
    pub(super) fn status_verb(&mut self, r: &mut Replayer<'_>, action: &Action, verb: StatusVerb) {
        match verb {
            StatusVerb::Rally => self.rally(r, action),
            StatusVerb::ClearSmoke => self.clear_smoke(r, action),
            StatusVerb::Reform => self.reform(r, action),
        }
    }

    /// `rally "Unit" pip "Brigadier"`: a command rally, paid by the brigadier's unspent pips, in
    /// Phase 1 or Phase 5 (RULE-07-3.2, Ch16 8.3); `rally "Unit" roll [d]` in Phase 5: a natural
    /// rally (RULE-07-3.3). In Phase 1 every rally is a command rally; in Phase 5 the `pip` says
    /// which it is.
    pub(super) fn rally(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "RULE-07-3.3, Ch16 8.3";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let by_pips = r.phase == PhaseKind::Command || action.args.iter().any(|a| matches!(a, Arg::Pip(_)));
        if by_pips
            && let Some(brigade) = self.state.unit(id).and_then(|u| u.brigade)
            && !self.paid_by_its_brigadier(r, action, brigade)
        {
            return;
        }
        let mut events = Vec::new();
        let result = if by_pips {
            let distance = self.bodies.get(&id).and_then(|body| self.command_range(id, body)).unwrap_or(0.0);
            let rules = &self.rules;
            transact(&mut self.state, |s| morale::command_rally(rules, s, id, distance, &mut events))
                .map(|()| true)
        } else {
            let mut dice = LogDice::new(dice_of(action, Purpose::Rally), self.seeded.as_mut());
            let rules = &self.rules;
            let out =
                transact(&mut self.state, |s| morale::natural_rally(rules, s, id, &mut dice, &mut events));
            if out.is_ok() {
                r.dice_done(&dice, RULE);
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

    /// Whether the rules take a unit's Gunsmoke marker off in this Phase 5, and by which rule
    /// (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11): a brisk wind clears every marker; by the
    /// numbered rule a unit of the active side that held its fire loses its marker; under
    /// `phase_five_all` every unengaged unit does. `Err` says why the marker stays. (A unit that
    /// stepped forward out of its smoke lost it at once, in Phase 2: `maneuver.rs`.)
    fn smoke_clears(&self, active: &str, u: &crate::engine::state::Unit) -> Result<&'static str, String> {
        let own_turn = self.state.sides.get(u.side.0).is_some_and(|s| s.name == active);
        if self.state.weather.brisk_wind {
            return Ok("RULE-05-5.4, Ch16 5.7");
        }
        match self.rules.rulings.smoke_clearing {
            SmokeClearing::PhaseFiveAll if u.turn.engaged => {
                Err("it is engaged in melee, and only unengaged smoke clears (RULINGS C17)".into())
            }
            SmokeClearing::PhaseFiveAll => Ok("Ch16 1.0, RULINGS C17"),
            SmokeClearing::ByRule if !own_turn => Err(format!(
                "it is {active}'s turn, and smoke clears only when its own side held its fire \
                 through an active phase (RULE-05-5.4, RULINGS G11)"
            )),
            SmokeClearing::ByRule if u.turn.fired => {
                Err("it fired this turn, and only a unit that held its fire loses its smoke (RULE-05-5.4, \
                 RULINGS G11)"
                    .into())
            }
            SmokeClearing::ByRule => Ok("RULE-05-5.4, RULINGS G11"),
        }
    }

    /// `clear_smoke "Unit"`: a marker the players took off by hand. It must be a marker the
    /// rules clear in this Phase 5 (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11); otherwise the
    /// marker stays and the line is an error.
    pub(super) fn clear_smoke(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "RULE-05-5.4, Ch16 5.7, RULINGS C17, G11";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        if !u.markers.gunsmoke {
            return r.here(
                Level::Error,
                format!("{name} has no Gunsmoke marker to remove"),
                "RULE-05-5.1, RULE-05-5.4",
            );
        }
        match self.smoke_clears(&r.side, u) {
            Ok(rule) => {
                let marker = self.rules.tables.gunsmoke.meta.title().to_string();
                if let Some(u) = self.state.unit_mut(id) {
                    u.markers.gunsmoke = false;
                }
                r.emit([Event::new(What::MarkerRemoved { unit: name, marker }, rule)]);
            }
            Err(why) => r.here(
                Level::Error,
                format!("{name}'s smoke may not be cleared now: {why}; the marker stays"),
                RULE,
            ),
        }
    }

    /// Whether a unit rested through this turn as RULE-07-3.5 asks (Ch12 5.0): on the table,
    /// still, neither firing nor assaulting nor engaged, farther than the stdlib's distance (`marker micro_hit`: `rest 2 beyond 12`) from
    /// every enemy and out of every enemy's sight. `Err` says what broke the rest.
    fn rested(&self, id: UnitId) -> Result<(), String> {
        let (Some(u), Some(body)) = (self.state.unit(id), self.bodies.get(&id)) else {
            return Err("it is not on the table".into());
        };
        if let Some(why) = busy(u) {
            return Err(why.into());
        }
        let enemies: Vec<(&str, &crate::battlefield::Body)> = self
            .bodies
            .iter()
            .filter_map(|(other, enemy)| {
                let e = self.state.unit(*other)?;
                (e.side != u.side && !e.removed).then_some((e.name.as_str(), enemy))
            })
            .collect();
        // The first enemy too near, found before any line of sight is drawn (issue 16: sight is
        // the costly test); an enemy before it that sees the unit is named first, as when each
        // enemy was asked both questions in turn.
        let beyond = self.rules.tables.reform_beyond;
        let near = enemies.iter().enumerate().find_map(|(i, (name, enemy))| {
            let gap = self.within_rest_distance(body, enemy)?;
            Some((i, format!("{name} is within {beyond}\" ({gap:.1}\")")))
        });
        let before = near.as_ref().map_or(enemies.len(), |(i, _)| *i);
        for (name, enemy) in &enemies[..before] {
            if self.sees_at_rest(enemy, body) {
                return Err(format!("{name} can see it"));
            }
        }
        match near {
            Some((_, message)) => Err(message),
            None => Ok(()),
        }
    }

    /// The gap between a unit and an enemy when the enemy is within the stdlib's distance that
    /// breaks a rest (`marker micro_hit`: `rest 2 beyond 12`; RULE-07-3.5), else None.
    fn within_rest_distance(
        &self,
        body: &crate::battlefield::Body,
        enemy: &crate::battlefield::Body,
    ) -> Option<f64> {
        let beyond = self.rules.tables.reform_beyond;
        // Two units whose reaches keep them farther apart than `beyond` need no exact gap.
        if !crate::battlefield::contact::may_be_within(body, enemy, beyond) {
            return None;
        }
        let theirs = enemy.stands();
        let gap = body
            .stands()
            .iter()
            .flat_map(|mine| theirs.iter().map(move |theirs| geo::Euclidean.distance(mine, theirs)))
            .fold(f64::INFINITY, f64::min);
        (gap <= beyond).then_some(gap)
    }

    /// Whether an enemy sees a resting unit, in the weather in force (RULE-07-3.5, Ch13 21.0).
    fn sees_at_rest(&self, enemy: &crate::battlefield::Body, body: &crate::battlefield::Body) -> bool {
        let weather_limit = self.state.weather.sight_limit(&self.rules.tables);
        self.bf.can_see(&SightQuery { weather_limit, ..SightQuery::new(enemy, body) })
    }

    /// [`Game::rested`]'s answer without its reason, for the count of every unit's rest at each
    /// turn's end (RULE-07-3.5, Ch12 5.0). The reason names an enemy that sees the unit before a
    /// nearer one, so `rested` draws lines of sight even when an enemy is too near; whether the
    /// unit rested needs no line of sight once any enemy is within the distance (issue 16: sight
    /// is the costly test).
    fn at_rest(&self, id: UnitId, sight: &mut RestSight) -> bool {
        let (Some(u), Some(body)) = (self.state.unit(id), self.bodies.get(&id)) else { return false };
        if busy(u).is_some() {
            return false;
        }
        let enemy = |other: &UnitId| self.state.unit(*other).is_some_and(|e| e.side != u.side && !e.removed);
        let mut enemies = self.bodies.iter().filter(|(other, _)| enemy(other));
        if enemies.clone().any(|(_, e)| self.within_rest_distance(body, e).is_some()) {
            return false;
        }
        let weather_limit = self.state.weather.sight_limit(&self.rules.tables); // Ch13 21.0
        !enemies.any(|(&other, e)| {
            let from = (*e, *body, weather_limit);
            let kept = sight.seen.entry((other, id)).or_default();
            if let Some(&(_, seen)) = kept.iter().find(|(was, _)| *was == from) {
                // The dev profile looks anyway: every replay of the tests holds the memo to it.
                debug_assert_eq!(seen, self.sees_at_rest(e, body), "whether {other:?} sees {id:?}");
                return seen;
            }
            let seen = self.sees_at_rest(e, body);
            if kept.len() >= SEEN_KEPT {
                kept.remove(0);
            }
            kept.push((from, seen));
            seen
        })
    }

    /// `reform "Unit"`: a worn line rested in reserve sheds its micro-hit (RULE-07-3.5, Ch12 5.0).
    /// It needs the stdlib's consecutive turns (`marker micro_hit`: `rest 2 ...`) of its own side at rest, this one included
    /// when it is its own (RULINGS G7: a unit's streaks count its own active turns).
    pub(super) fn reform(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "RULE-07-3.5, Ch12 5.0, RULINGS G7";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        if u.micro_hit == 0 {
            return r.here(Level::Error, format!("{name} has no micro-hit to shed by reforming"), RULE);
        }
        let own_turn = self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side);
        let before = self.ledger.rest.get(&id).copied().unwrap_or(0);
        let (streak, why) = match (own_turn, self.rested(id)) {
            (true, Ok(())) => (before + 1, None),
            (true, Err(why)) => (0, Some(why)),
            (false, _) => (before, None),
        };
        let needed = self.rules.tables.reform_turns;
        if streak < needed {
            let because = why.map_or(String::new(), |w| format!(" ({w})"));
            return r.here(
                Level::Error,
                format!(
                    "{name} may not reform: it has rested {streak} of the {needed} consecutive turns \
                     it needs{because}"
                ),
                RULE,
            );
        }
        if let Some(u) = self.state.unit_mut(id) {
            u.micro_hit = 0;
        }
        r.emit([
            Event::new(What::MicroHit { unit: name.clone(), micro_hit: 0 }, RULE),
            Event::new(What::Note { text: format!("{name} reforms: its micro-hit is gone") }, RULE),
        ]);
    }

    /// Phase 5 of the turn: smoke clears (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11), the
    /// brigades' states are checked (RULINGS C12), the Broken brigades' retreats and the Dress on
    /// the Colors pushes are audited, and each unit's rest is counted.
    pub(super) fn end_of_turn(&mut self, r: &mut Replayer<'_>) {
        let mut events = Vec::new();
        let active = r.side.clone();
        let title = self.rules.tables.gunsmoke.meta.title().to_string();
        let clears: Vec<(usize, &'static str)> = self
            .state
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.markers.gunsmoke)
            .filter_map(|(i, u)| self.smoke_clears(&active, u).ok().map(|rule| (i, rule)))
            .collect();
        for (i, rule) in clears {
            if let Some(u) = self.state.units.get_mut(i) {
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
        self.broken_retreats(r);
        self.pushes_complete(r);
        self.count_rest(r);
        self.place_works(r);
        self.undisposed_guns(r);
        self.written_orders_due(r);
        self.unrolled_fog(r);
        // Ch13 16.0: the battle cry's recoil, win or lose.
        let mut recoil = Vec::new();
        match transact(&mut self.state, |s| morale::battle_cry_recoil(&self.rules, s, &mut recoil)) {
            Ok(()) => r.emit(recoil),
            Err(e) => r.refused(&e, "Ch13 16.0"),
        }
        let statuses = self.state.brigades.iter().map(|b| b.status).collect();
        self.ledger.last_turn = Some((self.bodies.clone(), statuses));
    }

    /// Module july_sun, Ch13 11.0 (optional by RULINGS C26): an infantry regiment that
    /// double-times or declares an assault in two consecutive turns of its own (RULINGS G7) takes
    /// a Disorder marker at the end of its movement the second time: the end of Phase 2, where
    /// both are made (an assault is declared and resolved in the maneuver phase, whether or not
    /// the turn has a `melee { }` block).
    /// Disordered, it may neither double-time nor assault until rallied (Ch16 2.3, RULINGS C6).
    pub(super) fn july_sun(&mut self, r: &mut Replayer<'_>) {
        const RULE: &str = "Ch13 11.0 (july_sun), RULINGS C26";
        if !self.rules.modules.contains("july_sun") || r.phase != PhaseKind::Maneuver {
            return;
        }
        let exerted: Vec<UnitId> = (0..self.state.units.len())
            .map(UnitId)
            .filter(|&id| {
                self.state.unit(id).is_some_and(|u| {
                    let own = self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side);
                    let did = self.book.unit_turn(r.turn, id).double_time || u.turn.assaulted;
                    own && did && !u.removed && matches!(u.arm, crate::engine::state::Arm::Infantry)
                })
            })
            .collect();
        for id in exerted {
            let before = self.ledger.exertion.insert(id, r.turn);
            // The turn before this one is the other side's (RULINGS G7): the unit's last own turn
            // is two back.
            if r.turn < 3 || before != Some(r.turn - 2) {
                continue;
            }
            let mut events = vec![Event::new(
                What::Note {
                    text: format!("{} is exhausted by the heat: two turns of exertion", self.name(id)),
                },
                RULE,
            )];
            if crate::engine::morale::place_disorder(&self.rules, &mut self.state, id, &mut events, RULE)
                .is_ok()
            {
                r.emit(events);
            }
        }
    }

    /// Ch16 7.4: the loser of a melee retreats. After each action, the retreats its melees owe
    /// (the engine's `What::Retreat`) are noted, and a `retreat` line for the unit, later in the
    /// same turn, settles its own.
    pub(super) fn owe_retreats(&mut self, r: &Replayer<'_>, mark: usize, action: &Action) {
        if action.verb.value == ManeuverVerb::Retreat.word()
            && let Some(id) = unit_arg(action).and_then(|n| self.state.unit_named(&n.value))
        {
            self.retreats.retain(|(owed, _, _)| *owed != id);
            // The retreat a refused assault's account owed is made once (dotc D54).
            self.book.turn(r.turn).units.entry(id).or_default().unplayed_assault = None;
        }
        for e in r.events.get(mark..).unwrap_or(&[]) {
            let What::Retreat { unit, inches } = &e.event.what else { continue };
            let Some(id) = self.state.unit_named(unit) else { continue };
            self.retreats.retain(|(owed, _, _)| *owed != id);
            self.retreats.push((id, *inches, e.span));
        }
    }

    /// Ch16 7.4: when the log goes on to another turn, each melee loser of the turn before still
    /// on the table whose retreat the log did not record is an error at the action whose melee
    /// it lost (found by the Gettysburg afternoon log, issue 19: a loser left in contact was
    /// never flagged). A log that ends after a melee has not yet said where its loser went.
    pub(super) fn unmade_retreats(&mut self, r: &mut Replayer<'_>, turn: u32) {
        for (id, inches, span) in std::mem::take(&mut self.retreats) {
            let Some(u) = self.state.unit(id).filter(|u| u.on_table && !u.removed) else { continue };
            // Where straight back from where it stands now puts it (the log did not move it).
            let back = self.bodies.get(&id).map(|b| {
                let p = b.frame().to_table(0.0, -inches);
                (p.x, p.y)
            });
            if let (Some(to), Some(owed)) = (back, r.owed.as_mut()) {
                owed.push(OwedMove { unit: u.name.clone(), to, turn, phase: PhaseKind::Melee });
            }
            let to = back.map(super::maneuver::point);
            let message = format!(
                "{} lost this melee and must retreat {inches}\" straight back, but the log records no retreat \
                 for it this turn: add `retreat \"{}\" to {}` after the melee",
                u.name,
                u.name,
                to.unwrap_or_else(|| "(x, y)".to_string())
            );
            r.find(span, Level::Error, message, "Ch16 7.4");
        }
    }

    /// Ch16 8.2, RULE-07-2.4: every unit of a brigade that was already Broken when this turn
    /// began retreats toward its own table edge in each of its side's turns, the full distance of
    /// the stdlib's `brigade_state broken` (`retreat 6`, a flat 6" by RULINGS G14). Checked at the
    /// turn's end from where the unit stood at its start: a unit that did not move, or got less
    /// than that much nearer its side's edge (the scenario's `edge`; without one, moved less than
    /// that far), is an error. A unit that left the table has retreated. Judgement: the retreat is
    /// owed in the turns of the brigade's own side (it is a move, made in its own movement;
    /// RULINGS G7).
    fn broken_retreats(&self, r: &mut Replayer<'_>) {
        const RULE: &str = "Ch16 8.2, RULE-07-2.4, RULINGS G14";
        let Some((bodies, statuses)) = &self.ledger.last_turn else { return };
        let owed = self.rules.tables.broken.retreat.unwrap_or(0.0);
        for (id, before) in bodies {
            let Some(u) = self.state.unit(*id) else { continue };
            let broken = u.brigade.and_then(|b| statuses.get(b.0)) == Some(&BrigadeStatus::Broken);
            let side = self.state.sides.get(u.side.0).map(|s| s.name.as_str());
            if !broken || side != Some(&*r.side) || u.removed || !u.on_table {
                continue;
            }
            let Some(now) = self.bodies.get(id) else { continue };
            let (dx, dy) = (now.position.0 - before.position.0, now.position.1 - before.position.1);
            let edge = side.and_then(|s| self.book.edges.get(s)).copied();
            if dx.hypot(dy) <= crate::geometry::MEASURE_PRECISION {
                if let (Some(bearing), Some(kept)) = (edge, r.owed.as_mut()) {
                    let (ex, ey) = crate::geometry::bearing_vector(bearing);
                    let to = (before.position.0 + owed * ex, before.position.1 + owed * ey);
                    kept.push(OwedMove {
                        unit: u.name.clone(),
                        to,
                        turn: r.turn,
                        phase: PhaseKind::Maneuver,
                    });
                }
                r.here(
                    Level::Error,
                    format!(
                        "{}'s brigade is Broken: it must retreat toward its table edge this turn, but the \
                         log records no retreat for it",
                        u.name
                    ),
                    RULE,
                );
                continue;
            }
            // How much nearer its own edge the unit got (or how far it went, with no edge).
            let gained = match edge {
                Some(bearing) => {
                    let (ex, ey) = crate::geometry::bearing_vector(bearing);
                    dx * ex + dy * ey
                }
                None => dx.hypot(dy),
            };
            if crate::geometry::measured(gained)
                < crate::geometry::measured(owed) - crate::battlefield::movement::POSITION_TOLERANCE
            {
                let toward = match edge {
                    Some(_) => "nearer its table edge",
                    None => "in all",
                };
                r.here(
                    Level::Error,
                    format!(
                        "{}'s brigade is Broken: its units retreat {owed}\" a turn toward their table edge; it \
                         got {:.1}\" {toward}",
                        u.name,
                        gained.max(0.0)
                    ),
                    RULE,
                );
            }
        }
    }

    /// Ch16 2.3: a Dress on the Colors push is made by several regiments (the order's
    /// `min_regiments`); a push of fewer is an error at its first assault.
    fn pushes_complete(&self, r: &mut Replayer<'_>) {
        let min = self.rules.data.order("dress_on_the_colors").and_then(|o| o.min_regiments).unwrap_or(2);
        for ((turn, _), push) in &self.ledger.pushes {
            if *turn == r.turn && (push.members.len() as u32) < min {
                let message = format!(
                    "a Dress on the Colors assault needs at least {min} regiments; this one had {}",
                    push.members.len()
                );
                r.find(push.span, Level::Error, message, "Ch16 2.3");
            }
        }
    }

    /// Count one more turn of rest for each unit of the active side that rested through it, and
    /// start again from 0 for each that did not (RULE-07-3.5, RULINGS G7).
    fn count_rest(&mut self, r: &Replayer<'_>) {
        let own: BTreeSet<UnitId> = (0..self.state.units.len())
            .map(UnitId)
            .filter(|&id| {
                self.state
                    .unit(id)
                    .is_some_and(|u| self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side))
            })
            .collect();
        let mut sight = std::mem::take(&mut self.rest_sight);
        let buildings: Vec<(u32, bool)> = self.bf.buildings.iter().map(|b| (b.damage, b.collapsed)).collect();
        if sight.buildings != buildings {
            sight.seen.clear();
            sight.buildings = buildings;
        }
        for id in own {
            let rested = self.at_rest(id, &mut sight);
            // The reasoned answer must agree (every replay the tests make goes through here).
            debug_assert_eq!(rested, self.rested(id).is_ok(), "the rest of unit {id:?}");
            let entry = self.ledger.rest.entry(id).or_insert(0);
            *entry = if rested { *entry + 1 } else { 0 };
        }
        self.rest_sight = sight;
    }
}

/// What keeps a unit from resting this turn before any enemy is looked at (RULE-07-3.5, Ch12
/// 5.0): it moved or assaulted, it fired, or it is engaged in melee.
fn busy(u: &crate::engine::state::Unit) -> Option<&'static str> {
    let f = &u.turn;
    if f.moved || f.assaulted {
        Some("it moved this turn")
    } else if f.fired {
        Some("it fired this turn")
    } else if f.engaged {
        Some("it is engaged in melee")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    /// A small scenario with no wind: two brigades a side's width apart, a wood screening the
    /// confederate rear, and a confederate regiment carrying a micro-hit.
    const SCENARIO: &str = r#"scenario "Status test" {
    date 1863-07-09
    start 10:00
    turn_length 15 min
    turns 8
    first_side confederate
    table 48 x 36
    terrain {
        dense_woods "The Screen" polygon (28, 0) (36, 0) (36, 36) (28, 36)
    }
    side union "Union" {
        edge west
        brigade "Union Brigade" {
            brigadier "Col. Blue" reliable at (4, 14)
            regiment "1st U" { stands 5 regular rifled_musket line at (10, 18) facing east }
            regiment "2nd U" { stands 5 regular rifled_musket line at (10, 8) facing east }
        }
    }
    side confederate "Confederacy" {
        edge east
        brigade "Grey Brigade" {
            brigadier "Col. Grey" reliable at (40, 18)
            regiment "1st C" { stands 5 regular rifled_musket line at (20, 18) facing west }
            regiment "2nd C" { stands 4 regular rifled_musket line at (44, 30) facing west markers micro_hit }
        }
    }
}
"#;

    struct Loader;

    impl dotc_lang::Loader for Loader {
        fn load(&self, path: &Path) -> Result<String, String> {
            if path.ends_with("status.dotc") { Ok(SCENARIO.to_string()) } else { Err("not found".into()) }
        }
    }

    fn play(turns: &str) -> (String, Replay) {
        let game = format!(
            "game \"test\" {{\n    scenario \"status.dotc\"\n    players union \"A\", confederate \"B\"\n}}\n{turns}"
        );
        let analysis = dotc_lang::analyze(Path::new("test/game.dotc"), &game, &Loader);
        let replay = replay(&analysis, &ReplayOptions { source: Some(&game), ..ReplayOptions::default() });
        (game, replay)
    }

    /// The findings of a level at the n-th line holding `text` (0 = the first).
    fn found(game: &str, replay: &Replay, text: &str, nth: usize, level: Level) -> Vec<Finding> {
        let line = crate::replay::tests::line_holding(game, text, nth);
        let all = crate::replay::tests::findings_on_line(game, replay, line);
        all.into_iter().filter(|f| f.level == level).collect()
    }

    #[test]
    fn rule_05_5_4_smoke_is_cleared_by_hand_only_when_the_rules_clear_it() {
        let (game, replay) = play(
            "turn 1 confederate {\n    fire {\n        fire \"1st C\" at \"1st U\" roll [1, 2, 2, 3, 3]\n    }\n    status {\n        clear_smoke \"1st C\"\n    }\n}\nturn 2 union {\n    status {\n        clear_smoke \"1st C\"\n    }\n}\nturn 3 confederate {\n    status {\n        clear_smoke \"1st C\"\n    }\n}\n",
        );
        // Turn 1: it fired, so its smoke stays (RULE-05-5.4, RULINGS G11).
        let fired = found(&game, &replay, "clear_smoke", 0, Level::Error);
        assert!(
            fired.iter().any(|f| f.rule.contains("RULE-05-5.4") && f.message.contains("fired")),
            "{fired:#?}"
        );
        // Turn 2: the enemy's turn does not clear it.
        let enemy = found(&game, &replay, "clear_smoke", 1, Level::Error);
        assert!(
            enemy.iter().any(|f| f.rule.contains("RULE-05-5.4") && f.message.contains("union")),
            "{enemy:#?}"
        );
        // Turn 3: it held its fire through its own turn; the marker comes off at that line.
        assert!(found(&game, &replay, "clear_smoke", 2, Level::Error).is_empty());
        let line = game
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains("clear_smoke"))
            .nth(2)
            .map_or(0, |(i, _)| i + 1);
        assert!(replay.events.iter().any(|e| e.line == line
            && matches!(&e.event.what, What::MarkerRemoved { unit, .. } if unit == "1st C")));
        let first = replay.summary.units.iter().find(|u| u.name == "1st C");
        assert!(first.is_some_and(|u| !u.markers.iter().any(|m| m == "gunsmoke")));
    }

    #[test]
    fn rule_07_3_5_a_line_reforms_after_two_turns_at_rest() {
        let (game, replay) = play(
            "turn 1 confederate {\n    status {\n        reform \"2nd C\"\n    }\n}\nturn 2 union {\n    status {\n        note \"waiting\"\n    }\n}\nturn 3 confederate {\n    status {\n        reform \"2nd C\"\n    }\n}\n",
        );
        // One turn of rest is not enough.
        let early = found(&game, &replay, "reform", 0, Level::Error);
        assert!(
            early.iter().any(|f| f.rule.contains("RULE-07-3.5") && f.message.contains("1 of the 2")),
            "{early:#?}"
        );
        // The second consecutive turn is.
        assert!(found(&game, &replay, "reform", 1, Level::Error).is_empty(), "{:#?}", replay.findings);
        let second = replay.summary.units.iter().find(|u| u.name == "2nd C");
        assert_eq!(second.map(|u| u.micro_hit), Some(0));
    }

    #[test]
    fn rule_07_3_5_a_unit_that_moved_does_not_reform() {
        let (game, replay) = play(
            "turn 1 confederate {\n    status {\n        note \"resting\"\n    }\n}\nturn 2 union {\n    status {\n        note \"waiting\"\n    }\n}\nturn 3 confederate {\n    maneuver {\n        move \"2nd C\" to (40, 30) facing west\n    }\n    status {\n        reform \"2nd C\"\n    }\n}\n",
        );
        let moved = found(&game, &replay, "reform", 0, Level::Error);
        assert!(
            moved.iter().any(|f| f.rule.contains("RULE-07-3.5") && f.message.contains("moved")),
            "{moved:#?}"
        );
        let second = replay.summary.units.iter().find(|u| u.name == "2nd C");
        assert_eq!(second.map(|u| u.micro_hit), Some(1));
    }

    /// Turns 1 and 3 break the union brigade: the 1st U loses 2 stands, then its last 3.
    const BREAK_THE_UNION: &str = "turn 1 confederate {\n    fire {\n        fire \"1st C\" at \"1st U\" roll [6, 6, 6, 6, 6] discipline [6]\n    }\n}\nturn 2 union {\n    status {\n        note \"holding\"\n    }\n}\nturn 3 confederate {\n    fire {\n        fire \"1st C\" at \"1st U\" roll [6, 6, 6, 6, 6] discipline [6]\n    }\n}\n";

    #[test]
    fn ch16_8_2_a_broken_brigade_must_retreat_each_turn() {
        let (game, replay) = play(&format!(
            "{BREAK_THE_UNION}turn 4 union {{\n    status {{\n        note \"staying put\"\n    }}\n}}\n"
        ));
        let broke = replay.events.iter().any(|e| {
            matches!(&e.event.what, What::BrigadeChanged { to: BrigadeStatus::Broken, brigade, .. } if brigade == "Union Brigade")
        });
        assert!(broke, "{:#?}", replay.findings);
        let stayed = found(&game, &replay, "turn 4 union", 0, Level::Error);
        assert!(
            stayed.iter().any(|f| f.rule.contains("Ch16 8.2") && f.message.contains("2nd U")),
            "{stayed:#?}"
        );
        // With the retreat logged there is nothing to report.
        let (game, replay) = play(&format!(
            "{BREAK_THE_UNION}turn 4 union {{\n    status {{\n        retreat \"2nd U\" to (4, 8) facing east\n    }}\n}}\n"
        ));
        let retreated = found(&game, &replay, "turn 4 union", 0, Level::Error);
        assert!(retreated.iter().all(|f| !f.rule.contains("Ch16 8.2")), "{retreated:#?}");
    }

    #[test]
    fn rule_07_2_4_a_broken_units_retreat_is_the_full_6_inches_toward_its_own_edge() {
        // The 2nd U stands at (10, 8) facing east; the union edge is west. Each turn's moves are
        // judged at its end from where the unit stood at its start.
        let turn4 = |moves: &str| {
            play(&format!("{BREAK_THE_UNION}turn 4 union {{\n    maneuver {{\n{moves}    }}\n}}\n"))
        };
        let complaint = |game: &str, replay: &Replay| {
            found(game, replay, "turn 4 union", 0, Level::Error)
                .into_iter()
                .filter(|f| f.rule.contains("RULE-07-2.4") && f.message.contains("2nd U"))
                .map(|f| f.message.clone())
                .collect::<Vec<_>>()
        };
        // Half the distance: 3" nearer the edge is short of the stdlib's 6.
        let (game, replay) = turn4("        move \"2nd U\" to (7, 8) facing east\n");
        let short = complaint(&game, &replay);
        assert!(
            short.iter().any(|m| m.contains("got 3.0\" nearer its table edge")),
            "{:#?}",
            replay.findings
        );
        // Back and to the side, 3.2" in all: only the 2.5" toward the edge count.
        let (game, replay) = turn4("        move \"2nd U\" to (7.5, 6) facing east\n");
        let oblique = complaint(&game, &replay);
        assert!(oblique.iter().any(|m| m.contains("got 2.5\" nearer")), "{:#?}", replay.findings);
        // The full 6" straight back toward the edge: nothing to report.
        let (game, replay) = turn4("        retreat \"2nd U\" to (4, 8) facing east\n");
        assert_eq!(complaint(&game, &replay), Vec::<String>::new(), "{:#?}", replay.findings);
    }
}
