//! Replay of the maneuver verbs.

use super::*;

impl Game {
    pub(super) fn maneuver_verb(&mut self, r: &mut Replayer<'_>, action: &Action) {
        match action.verb.value.as_str() {
            "formation" => self.formation(r, action),
            "move" | "enter" | "retreat" => self.movement(r, action),
            _ => r.not_replayed(action),
        }
    }

    pub(super) fn formation(&mut self, r: &mut Replayer<'_>, action: &Action) {
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
    pub(super) fn flush_formation_changes(&mut self, r: &mut Replayer<'_>) {
        let pending = std::mem::take(&mut self.pending);
        for (id, (old, body, span)) in pending {
            let Some(to) = self.state.unit(id).map(|u| u.formation.clone()) else { continue };
            let saved = r.span;
            r.span = span;
            self.judge_move(r, id, &old, MoveKind::ChangeFormation { to: &to }, body, Pose::of(&body), &[]);
            r.span = saved;
        }
    }

    pub(super) fn mover<'f>(&self, id: UnitId, formation: &'f str) -> Option<Mover<'f>> {
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
    pub(super) fn judge_move(
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

    pub(super) fn movement(&mut self, r: &mut Replayer<'_>, action: &Action) {
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
}
