//! Replay of the fire verbs.

use super::*;

impl Game {
    pub(super) fn fire_verb(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "fire" => self.fire(r, action),
            _ => r.not_replayed(action),
        }
    }

    /// The smoke on the table but a unit's own marker (the engine counts that one itself).
    pub(super) fn smoke_but(&self, id: UnitId) -> Vec<Smoke> {
        self.bodies
            .iter()
            .filter(|(other, _)| {
                **other != id && self.state.unit(**other).is_some_and(|u| u.markers.gunsmoke)
            })
            .map(|(_, b)| Smoke::marker_of(b))
            .collect()
    }

    /// The facts of a shot the state does not hold, from the bodies and the battlefield.
    pub(super) fn fire_input(
        &self,
        firer: UnitId,
        fb: &Body,
        tb: &Body,
        kind: FireKind,
    ) -> (FireInput, bool) {
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

    pub(super) fn fire(&mut self, r: &mut Replayer<'_>, action: &Action) {
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
        let mut dice = LogDice::new(dice_of(action, Purpose::ToHit), self.seeded.as_mut());
        let micro_before = self.state.unit(target).map_or(0, |u| u.micro_hit);
        match resolve_volley(&self.rules, &mut self.state, firer, target, &input, &mut dice) {
            Ok(report) => {
                r.emit(report.events.iter().cloned());
                r.dice_done(&dice, RULE);
                if let Some(claim) = &action.claim {
                    let micro_after = self.state.unit(target).map_or(0, |u| u.micro_hit);
                    claims::check_volley(r, claim, &report, micro_before, micro_after);
                }
            }
            Err(e) => r.refused(&e, RULE),
        }
    }
}
