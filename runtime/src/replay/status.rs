//! Replay of the status verbs.

use super::*;

impl Game {
    pub(super) fn status_verb(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "rally" => self.rally(r, action),
            _ => r.not_replayed(action),
        }
    }

    pub(super) fn rally(&mut self, r: &mut Replayer<'_>, action: &Action) {
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

    /// Phase 5 of the turn: smoke clears (RULE-05-5.4, Ch16 5.7, RULINGS C17, G11) and the brigades'
    /// states are checked (RULINGS C12).
    pub(super) fn end_of_turn(&mut self, r: &mut Replayer<'_>) {
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
