//! Hidden Deployment in the replay (module `hidden_deployment`, Ch13 4.0, dotc D27, D28).
//!
//! - The scenario's `blind "B1" brigade "..." at (x, y)` and `dummy "D1" at (x, y)` are the
//!   engine's blinds ([`crate::engine::blinds`]); with the module off each is an error at the
//!   header ([`Game::blinds_at_setup`]).
//! - `move "B1" to (x, y) [via ...]`, in its side's Phase 2: a flat 9" (the rule data's
//!   `maneuver blind`) along its path, on the table and across no impassable ground
//!   ([`Game::move_blind`]).
//! - After every action of a Phase 2, a standing blind within the spotting range (12") of an
//!   enemy unit or an enemy standing blind is unmasked: its reveal is owed ([`Game::spot_blinds`]).
//!   An owed reveal not made before the next action, or by the end of the phase, is an error
//!   ([`Game::blinds_before`], [`Game::blinds_end_of_phase`]).
//! - `reveal "B1"`: a dummy is removed; a real blind's units come on with
//!   `enter "Unit" to (x, y) facing F [formation]`, each with its colours within 6" of the
//!   blind's centre (dotc D28), whichever side's Phase 2 it is ([`Game::enter_hidden`]); its
//!   brigadier is placed with `move "Brigadier" to (x, y)`, within the same 6". A unit is not
//!   placed on another unit nor on impassable ground ([`Game::placement_spot`]), and every unit
//!   of a revealed brigade is placed before the phase ends ([`Game::blinds_end_of_phase`]).
//! - A unit still under a blind may not fire or charge (said at the line, [`Game::blinds_before`]),
//!   nor come on, nor its brigadier ride out.

use geo::{Distance, Euclidean, Intersects};

use super::maneuver::{facing_arg, to_arg};
use super::*;
use crate::engine::blinds;

const RULE: &str = blinds::RULE;

/// An engine refusal as a finding.
fn refusal(r: &mut Replayer<'_>, error: &EngineError) {
    match error {
        EngineError::Illegal { unit, why, rule } => {
            r.here(Level::Error, format!("{unit} may not {why}"), *rule)
        }
        other => r.here(Level::Error, other.to_string(), RULE),
    }
}

impl Game {
    /// With the module off, every blind of the scenario is an error at the header: its brigade
    /// never comes on (Ch13 4.0, dotc D27).
    pub(super) fn blinds_at_setup(&self, r: &mut Replayer<'_>, header: Span) {
        if self.rules.module(blinds::HIDDEN_DEPLOYMENT) {
            return;
        }
        for blind in &self.state.blinds {
            let message = format!(
                "the blind \"{}\" is deployed but the `{}` module is off: switch it on to play blinds",
                blind.name,
                blinds::HIDDEN_DEPLOYMENT
            );
            r.find(header, Level::Error, message, "Ch13 4.0, dotc D27");
        }
    }

    /// Whether `name` is a blind of this game.
    pub(super) fn is_blind(&self, name: &str) -> bool {
        blinds::blind_named(&self.state, name).is_some()
    }

    /// Ch13 4.0: `move "B1" to (x, y) [via ...]`.
    pub(super) fn move_blind(&mut self, r: &mut Replayer<'_>, action: &Action, name: &str) {
        if !self.rules.module(blinds::HIDDEN_DEPLOYMENT) {
            let message =
                format!("{name} is a blind, and the `hidden_deployment` module is off: it may not move");
            return r.here(Level::Error, message, RULE);
        }
        let Some(blind) = blinds::blind_named(&self.state, name).cloned() else { return };
        if r.phase != PhaseKind::Maneuver {
            return r.here(Level::Error, format!("blind {name} moves only in Phase 2"), RULE);
        }
        if self.state.sides.get(blind.side.0).is_some_and(|s| *s.name != *r.side) {
            let message =
                format!("blind {name} is not of the active side: in Phase 2 only {} maneuvers", r.side);
            return r.here(Level::Error, message, "Ch13 4.0, Ch16 1.0");
        }
        let Some(to) = to_arg(action) else {
            return r.here(Level::Error, "`move` gives no position", RULE);
        };
        let mut path = vec![blind.position];
        path.extend(
            action
                .args
                .iter()
                .filter_map(|a| if let Arg::Via(v) = a { Some(v) } else { None })
                .flat_map(|v| v.value.iter().map(|p| (p.x, p.y))),
        );
        path.push(to);
        let length: f64 = path.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum();
        if let Err(e) = blinds::judge_move(&self.rules, &blind, r.turn, length) {
            return refusal(r, &e);
        }
        if let Some(fault) = self.blind_path_fault(&path) {
            return r.here(Level::Error, format!("blind {name} may not go so: {fault}"), RULE);
        }
        blinds::move_to(&mut self.state, name, to, r.turn, length);
        let text = format!("blind {name} moves {length:.1}\" to ({}, {})", to.0, to.1);
        r.emit([Event::new(What::Note { text }, RULE)]);
    }

    /// Why a blind may not go along `path`, if it may not: off the table, or across impassable
    /// ground (an impassable area, or an impassable line away from its fords and bridges).
    fn blind_path_fault(&self, path: &[(f64, f64)]) -> Option<String> {
        use dotc_lang::library::TerrainMove;
        let to = *path.last()?;
        if let Some((w, h)) = self.bf.table
            && (!(0.0..=w).contains(&to.0) || !(0.0..=h).contains(&to.1))
        {
            return Some(format!("({}, {}) is off the {w} x {h} table", to.0, to.1));
        }
        let crossing_near = |legs: &geo::Line<f64>, points: &[(f64, f64)]| {
            points.iter().any(|p| {
                let d = Euclidean.distance(&geo::Point::new(p.0, p.1), legs);
                crate::geometry::measured(d) <= crate::battlefield::CONTACT_TOLERANCE
            })
        };
        for leg in path.windows(2) {
            let line = geo::Line::new(
                geo::coord! { x: leg[0].0, y: leg[0].1 },
                geo::coord! { x: leg[1].0, y: leg[1].1 },
            );
            let impassable_area = |a: &&crate::battlefield::TerrainArea| {
                a.terrain.movement == TerrainMove::Impassable || a.flags.iter().any(|f| f == "impassable")
            };
            if let Some(a) =
                self.bf.areas.iter().filter(impassable_area).find(|a| a.outline.intersects(&line))
            {
                let name = a.name.clone().unwrap_or_else(|| a.terrain.meta.title().to_string());
                return Some(format!("the way crosses impassable ground ({name})"));
            }
            for l in &self.bf.lines {
                let impassable = l.terrain.movement == TerrainMove::Impassable
                    || l.flags.iter().any(|f| f == "impassable");
                if impassable
                    && l.line.intersects(&line)
                    && !crossing_near(&line, &[l.fords.as_slice(), l.bridges.as_slice()].concat())
                {
                    let name = l.name.clone().unwrap_or_else(|| l.terrain.meta.title().to_string());
                    return Some(format!(
                        "the way crosses impassable ground ({name}) away from its fords and bridges"
                    ));
                }
            }
        }
        None
    }

    /// Ch13 4.0: `reveal "B1"`.
    pub(super) fn reveal(&mut self, r: &mut Replayer<'_>, action: &Action) {
        let Some(name) = super::unit_arg(action) else {
            return r.here(Level::Error, "`reveal` names no blind", RULE);
        };
        if !self.rules.module(blinds::HIDDEN_DEPLOYMENT) {
            let message = "the `hidden_deployment` module is off: there are no blinds to reveal";
            return r.find(name.span, Level::Error, message, RULE);
        }
        if !self.is_blind(&name.value) {
            let message = format!("there is no blind \"{}\" on the table to reveal", name.value);
            return r.find(name.span, Level::Error, message, RULE);
        }
        match blinds::reveal(&self.rules, &mut self.state, &name.value) {
            Ok(events) => {
                r.emit(events);
                self.reveals.insert(name.value.clone(), r.span);
                if !r.findings_only {
                    r.steps.push(Step::Reveal { blind: name.value.clone(), span: r.span });
                }
            }
            Err(e) => refusal(r, &e),
        }
    }

    /// Ch13 4.0: the sides whose secrets `action` names (a unit, or a brigadier, of a brigade
    /// still under one of their blinds), marked on its narrative step for the other sides' views
    /// ([`Replay::as_seen_by`]). Asked before the action is played.
    pub(super) fn mark_secrets(&self, r: &mut Replayer<'_>, action: &Action) {
        if self.state.blinds.iter().all(|b| !b.standing() || b.is_dummy()) {
            return;
        }
        let mut sides = Vec::new();
        let mut look = |action: &Action| {
            for arg in &action.args {
                let (Arg::Unit(n) | Arg::At(n) | Arg::Against(n) | Arg::Pip(n)) = arg else { continue };
                let under = match self.state.unit_named(&n.value) {
                    Some(id) => blinds::still_hidden(&self.state, id),
                    None => blinds::blind_of_leader(&self.state, &n.value).filter(|b| b.standing()),
                };
                if let Some(blind) = under
                    && !sides.contains(&blind.side.0)
                {
                    sides.push(blind.side.0);
                }
            }
        };
        look(action);
        action.steps.iter().for_each(&mut look);
        if sides.is_empty() {
            return;
        }
        if let Some(Step::Action { span, secret_of, .. }) = r.steps.last_mut()
            && *span == action.span
        {
            *secret_of = sides;
        }
    }

    /// Ch13 4.0, dotc D28: `enter "Unit" to (x, y) facing F [formation]` of a unit hidden under a
    /// blind. False when the unit was never under one (a reinforcement: the caller goes on).
    pub(super) fn enter_hidden(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        id: UnitId,
        to: (f64, f64),
    ) -> bool {
        let Some(blind) = blinds::blind_of(&self.state, id).cloned() else { return false };
        let Some(u) = self.state.unit(id) else { return true };
        let name = u.name.clone();
        if u.removed {
            r.here(Level::Error, format!("{name} has left the table for good"), "RULINGS G5");
            return true;
        }
        if u.on_table && self.bodies.contains_key(&id) {
            r.here(Level::Error, format!("{name} is already on the table"), RULE);
            return true;
        }
        let off = (to.0 - blind.position.0).hypot(to.1 - blind.position.1);
        if let Err(e) = blinds::placement(&self.rules, &blind, &name, off) {
            refusal(r, &e);
            return true;
        }
        if let Some((w, h)) = self.bf.table
            && (!(0.0..=w).contains(&to.0) || !(0.0..=h).contains(&to.1))
        {
            r.here(
                Level::Error,
                format!("{name} is placed off the {w} x {h} table at ({}, {})", to.0, to.1),
                RULE,
            );
            return true;
        }
        // In any legal facing and formation its owner chooses (Ch13 4.0): the line's, else its own.
        let formation = action.args.iter().find_map(|a| match a {
            Arg::Word(w) if self.rules.data.formation(&w.value).is_some() => Some(w.value.clone()),
            _ => None,
        });
        let Some(u) = self.state.unit(id) else { return true };
        let mut placed = u.clone();
        if let Some(f) = formation.filter(|_| !u.is_battery()) {
            placed.formation = f;
        }
        let facing = facing_arg(action).unwrap_or(0.0);
        let body = Body::new(to, facing, layout_for(&self.rules, &placed));
        // dotc D28: where a unit may stand, as the scenario check and the ground say.
        if let Err(e) = blinds::placement_spot(&name, &self.placement_spot(id, &body)) {
            refusal(r, &e);
            return true;
        }
        let Some(u) = self.state.unit_mut(id) else { return true };
        u.formation = placed.formation;
        u.on_table = true;
        self.bodies.insert(id, body);
        let text = format!("{name} is placed at ({}, {}), revealed from blind {}", to.0, to.1, blind.name);
        r.emit([Event::new(What::Note { text }, "Ch13 4.0, dotc D28")]);
        true
    }

    /// Before each action: an owed reveal this action does not make is an error (once); a unit
    /// under a blind may not fire or charge; a hidden brigadier rides out only after his
    /// blind's reveal, within its 6" (Ch13 4.0, dotc D28).
    /// True when the action is refused whole (a hidden unit's fire or charge): it is not played.
    pub(super) fn blinds_before(&mut self, r: &mut Replayer<'_>, action: &Action) -> bool {
        if self.state.blinds.is_empty() || !self.rules.module(blinds::HIDDEN_DEPLOYMENT) {
            return false;
        }
        let verb = Verb::from_word(&action.verb.value);
        let subject = super::unit_arg(action).map(|n| n.value.clone());
        // Reveals owed at once are written one after another, each with its units' placements
        // (dotc D28): a `reveal` or an `enter` does not pass an owed reveal by.
        let revealing = matches!(verb, Some(Verb::Maneuver(ManeuverVerb::Reveal | ManeuverVerb::Enter)));
        for blind in self.state.blinds.iter_mut() {
            let Some(by) = blind.owed.clone() else { continue };
            if blind.overlooked || revealing {
                continue;
            }
            blind.overlooked = true;
            let message = format!(
                "blind {} is unmasked ({by} came within spotting range of it) and must be revealed at once, before this action",
                blind.name
            );
            r.here(Level::Error, message, RULE);
        }
        let Some(subject) = subject else { return false };
        let what = match verb {
            Some(Verb::Fire(FireVerb::Fire | FireVerb::Concentrate | FireVerb::React)) => "fire",
            Some(Verb::Assault(AssaultVerb::Assault)) => "charge",
            Some(Verb::Maneuver(ManeuverVerb::Move)) => {
                self.hidden_brigadier(r, action, &subject);
                return false;
            }
            _ => return false,
        };
        if let Some(id) = self.state.unit_named(&subject)
            && let Err(e) = blinds::may_not_act(&self.state, id, what)
        {
            refusal(r, &e);
            return true;
        }
        false
    }

    /// dotc D28: a brigadier hidden with his brigade rides out only once its blind is revealed,
    /// placed within its 6" like his regiments.
    fn hidden_brigadier(&mut self, r: &mut Replayer<'_>, action: &Action, name: &str) {
        let Some(blind) = blinds::blind_of_leader(&self.state, name).cloned() else { return };
        if self.leader_positions.contains_key(name) {
            return;
        }
        if blind.standing() {
            let message = format!(
                "{name} is hidden with his brigade under the blind \"{}\": reveal it first",
                blind.name
            );
            return r.here(Level::Error, message, RULE);
        }
        let Some(to) = to_arg(action) else { return };
        let off = (to.0 - blind.position.0).hypot(to.1 - blind.position.1);
        if let Err(e) = blinds::placement(&self.rules, &blind, name, off) {
            refusal(r, &e);
        }
    }

    /// After each action of a Phase 2: every standing blind within spotting range of an enemy
    /// unit on the table (to the nearest of its stands) or of an enemy standing blind (centre to
    /// centre) is unmasked and owes its reveal (Ch13 4.0; spotting is mutual, dotc D28).
    pub(super) fn spot_blinds(&mut self, r: &mut Replayer<'_>) {
        if self.state.blinds.is_empty()
            || r.phase != PhaseKind::Maneuver
            || !self.rules.module(blinds::HIDDEN_DEPLOYMENT)
        {
            return;
        }
        let mut spotted: Vec<(usize, String, f64)> = Vec::new();
        for (i, blind) in self.state.blinds.iter().enumerate() {
            if !blind.standing() || blind.owed.is_some() {
                continue;
            }
            let centre = geo::Point::new(blind.position.0, blind.position.1);
            let mut nearest: Option<(String, f64)> = None;
            let mut consider = |who: String, d: f64| {
                if nearest.as_ref().is_none_or(|(_, best)| d < *best) {
                    nearest = Some((who, d));
                }
            };
            for (id, body) in &self.bodies {
                let Some(u) =
                    self.state.unit(*id).filter(|u| u.side != blind.side && u.on_table && !u.removed)
                else {
                    continue;
                };
                let d = body
                    .stands()
                    .iter()
                    .map(|s| Euclidean.distance(&centre, s))
                    .fold(f64::INFINITY, f64::min);
                consider(u.name.clone(), d);
            }
            for other in self.state.blinds.iter().filter(|o| o.side != blind.side && o.standing()) {
                let d = (other.position.0 - blind.position.0).hypot(other.position.1 - blind.position.1);
                consider(format!("blind {}", other.name), d);
            }
            if let Some((who, d)) = nearest.filter(|(_, d)| blinds::spotted(&self.rules, *d)) {
                spotted.push((i, who, d));
            }
        }
        for (i, who, d) in spotted {
            let Some(blind) = self.state.blinds.get_mut(i) else { continue };
            blind.owed = Some(who.clone());
            let text = format!("blind {} is unmasked: {who} is {d:.1}\" from it", blind.name);
            r.emit([Event::new(What::Note { text }, RULE)]);
        }
    }

    /// dotc D28: what the table shows where `id` would stand as `body`: the first unit on the
    /// table its stands would share more than the stacking tolerance with (as the scenario
    /// check measures it, [`crate::geometry::overlap_area`]), and impassable ground under it (an
    /// impassable area it touches, or an impassable line across it away from its fords and
    /// bridges).
    fn placement_spot(&self, id: UnitId, body: &Body) -> blinds::Spot {
        use dotc_lang::library::TerrainMove;
        let footprint = body.footprint();
        let overlaps = self.bodies.iter().find_map(|(other, b)| {
            let u = self.state.unit(*other).filter(|u| *other != id && u.on_table && !u.removed)?;
            let area = crate::geometry::overlap_area(&footprint, &b.footprint());
            (area > crate::geometry::OVERLAP_TOLERANCE).then(|| (u.name.clone(), area))
        });
        let impassable = |movement: &TerrainMove, flags: &[String]| {
            *movement == TerrainMove::Impassable || flags.iter().any(|f| f == "impassable")
        };
        let area = self
            .bf
            .areas
            .iter()
            .filter(|a| impassable(&a.terrain.movement, &a.flags))
            .find(|a| a.outline.intersects(&footprint))
            .map(|a| a.name.clone().unwrap_or_else(|| a.terrain.meta.title().to_string()));
        let line = || {
            self.bf
                .lines
                .iter()
                .filter(|l| impassable(&l.terrain.movement, &l.flags) && l.line.intersects(&footprint))
                .find(|l| {
                    let crossings = [l.fords.as_slice(), l.bridges.as_slice()].concat();
                    !crossings.iter().any(|p| footprint.intersects(&geo::Point::new(p.0, p.1)))
                })
                .map(|l| l.name.clone().unwrap_or_else(|| l.terrain.meta.title().to_string()))
        };
        blinds::Spot { overlaps, impassable: area.or_else(line) }
    }

    /// At the end of each phase, an owed reveal still not made is an error (once); so is a
    /// revealed brigade's unit not placed in the phase of its reveal (dotc D28).
    pub(super) fn blinds_end_of_phase(&mut self, r: &mut Replayer<'_>, phase: Span) {
        let owing: Vec<(String, Vec<String>)> = self
            .state
            .blinds
            .iter()
            .filter(|b| b.placing)
            .map(|b| {
                (b.name.clone(), blinds::unplaced(&self.state, b).into_iter().map(str::to_string).collect())
            })
            .collect();
        // Said at the reveal that owes them, so a log may allow it there.
        for (name, missing) in owing {
            let at = self.reveals.get(&name).copied().unwrap_or(phase);
            if !missing.is_empty() {
                let message = format!(
                    "blind {name} was revealed and {} not placed before the end of the phase: each unit of a revealed brigade comes on at once",
                    match missing.as_slice() {
                        [one] => format!("{one} was"),
                        more => format!("{} were", more.join(", ")),
                    }
                );
                r.find(at, Level::Error, message, "Ch13 4.0, dotc D28");
            }
        }
        for blind in self.state.blinds.iter_mut() {
            blind.placing = false;
        }
        for blind in
            self.state.blinds.iter_mut().filter(|b| b.owed.is_some() && !b.overlooked && b.standing())
        {
            blind.overlooked = true;
            let message = format!("blind {} was unmasked and is never revealed in this phase", blind.name);
            r.find(phase, Level::Error, message, RULE);
        }
    }
}
