//! Replay of the assault verbs.

use super::*;

impl Game {
    pub(super) fn assault_verb(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "assault" => self.assault(r, action),
            _ => r.not_replayed(action),
        }
    }

    pub(super) fn assault(&mut self, r: &mut Replayer<'_>, action: &Action) {
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
        let mut dice = LogDice::new(dice, self.seeded.as_mut());
        match resolve_assault(&self.rules, &mut self.state, charger, target, &input, &mut dice) {
            Ok(report) => {
                r.emit(report.events.iter().cloned());
                r.dice_done(&dice, RULE);
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
    pub(super) fn momentum(&self, cb: &Body, tb: &Body) -> bool {
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
}
