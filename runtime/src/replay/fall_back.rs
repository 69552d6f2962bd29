//! Fall backs the rules impose (RULE-07-1.5 under RULINGS C5; the Spent-under-fire test, Ch16
//! 8.1, RULINGS G9; an Open Order unit overrun by formed troops, Ch13 22.0, RULINGS G14), made
//! on the table.
//!
//! The engine says that a unit falls back (`What::FallBack`, the inches and the rule); the log
//! records the move on the line right after the action that caused it, in the same phase, as it
//! records a melee retreat: `fall_back "Unit" to (x, y)` (or `fall_back "Unit"`, which is the
//! same place). The replay checks it: straight back the full distance from where the unit stood,
//! keeping its facing (Ch16 3.3), within the fixed moves' tolerance (`POSITION_TOLERANCE`,
//! `FACING_TOLERANCE`), and what stands in the way as for any move (impassable ground, the table
//! edge, other units). It is no move of the unit's own: it keeps its right to fire and uses none
//! of its movement.
//!
//! A log that leaves the line out is an error at the action that caused the fall back, naming
//! the line to add, and the replay moves the unit there itself, so later volleys measure from
//! where the rules put it. A `fall_back` line at the wrong place is an error too, and the unit
//! goes where the rules put it.

use super::maneuver::{facing_arg, named_friend, number_arg, point, to_arg};
use super::*;
use crate::battlefield::movement::{FACING_TOLERANCE, FindingKind, POSITION_TOLERANCE};

/// A fall back the rules imposed and the log has yet to record.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OwedFallBack {
    unit: UnitId,
    inches: f64,
    rule: &'static str,
    /// Where the unit stood when it was made to fall back.
    from: Body,
    /// The action that made it fall back.
    span: Span,
}

impl OwedFallBack {
    /// This fall back with the span of its cause moved by an edit of the log; None when the edit
    /// replaced it (`resume.rs`).
    pub(super) fn mapped(&self, map: impl Fn(Span) -> Option<Span>) -> Option<OwedFallBack> {
        Some(OwedFallBack { span: map(self.span)?, ..self.clone() })
    }

    /// Where the rules put the unit: `inches` straight back, its facing kept (Ch16 3.3).
    fn end(&self) -> Pose {
        let back = self.from.frame().to_table(0.0, -self.inches);
        Pose::new((back.x, back.y), self.from.facing)
    }
}

impl Game {
    /// After an action: the fall backs its events impose, each owed from where its unit stands.
    pub(super) fn owe_fall_backs(&mut self, r: &Replayer<'_>, mark: usize) {
        for e in r.events.get(mark..).unwrap_or(&[]) {
            let What::FallBack { unit, inches } = &e.event.what else { continue };
            let Some(id) = self.state.unit_named(unit) else { continue };
            let Some(from) = self.bodies.get(&id).copied() else { continue };
            self.owed.retain(|o| o.unit != id);
            self.owed.push(OwedFallBack {
                unit: id,
                inches: *inches,
                rule: e.event.rule,
                from,
                span: e.span,
            });
        }
    }

    /// Before an action (`next`; None at a phase's end): the owed fall backs the log did not
    /// record right after their cause. Each is an error at its cause, and the replay makes the
    /// move itself. A `fall_back` line for an owed unit keeps them all waiting (several may follow
    /// one another).
    pub(super) fn overdue_fall_backs(&mut self, r: &mut Replayer<'_>, next: Option<&Action>) {
        if self.owed.is_empty() {
            return;
        }
        // Ch13 12.0: an owed pursuit's line keeps them waiting too (`pursuit.rs`).
        if next.is_some_and(|action| self.records_a_fall_back(action) || self.records_a_pursuit(action)) {
            return;
        }
        for owed in std::mem::take(&mut self.owed) {
            let end = owed.end();
            let name = self.name(owed.unit);
            let message = format!(
                "{name} falls back {}\" straight back, keeping its facing, but the log does not record the move: \
                 add `fall_back \"{name}\" to {}` on the line after this one; the replay moves it there",
                owed.inches,
                point(end.position)
            );
            r.find(owed.span, Level::Error, message, format!("{}, Ch16 3.3", owed.rule));
            self.make_fall_back(r, &owed, end);
        }
    }

    /// Whether `action` is a `fall_back` line for a unit that owes one.
    pub(super) fn records_a_fall_back(&self, action: &Action) -> bool {
        action.verb.value == ManeuverVerb::FallBack.word()
            && unit_arg(action)
                .and_then(|n| self.state.unit_named(&n.value))
                .is_some_and(|id| self.owed.iter().any(|o| o.unit == id))
    }

    /// Put the unit where its fall back ends, and say so.
    fn make_fall_back(&mut self, r: &mut Replayer<'_>, owed: &OwedFallBack, end: Pose) {
        let Some(now) = self.bodies.get(&owed.unit).copied() else { return };
        self.place(owed.unit, Body { position: end.position, facing: end.facing, ..now });
        let text =
            format!("{} falls back {}\" to {}", self.name(owed.unit), owed.inches, point(end.position));
        r.emit([Event::new(What::Note { text }, owed.rule)]);
    }

    /// `fall_back "Unit" [to (x, y) | inches]` for a fall back the rules imposed on `id`
    /// (RULE-07-1.5, RULINGS C5, G14): checked against the rules' place and made. False when the
    /// unit owes none (the line is an ordinary fall back, Ch16 3.3).
    pub(super) fn owed_fall_back(&mut self, r: &mut Replayer<'_>, action: &Action, id: UnitId) -> bool {
        let Some(at) = self.owed.iter().position(|o| o.unit == id) else { return false };
        let owed = self.owed.remove(at);
        let rules_end = owed.end();
        let name = self.name(id);
        let rule = format!("{}, Ch16 3.3", owed.rule);
        let logged = match (to_arg(action), number_arg(action)) {
            (Some(to), _) => Pose::new(to, facing_arg(action).unwrap_or(owed.from.facing)),
            (None, Some(inches)) => {
                let back = owed.from.frame().to_table(0.0, -inches);
                Pose::new((back.x, back.y), facing_arg(action).unwrap_or(owed.from.facing))
            }
            (None, None) => rules_end,
        };
        let (off, turned) = rules_end.gap_to(&logged);
        if off > POSITION_TOLERANCE || turned > FACING_TOLERANCE {
            let message = format!(
                "{name} falls back {}\" straight back from where it stood, keeping its facing: to {} facing {}; \
                 the log puts it {off:.2}\" from there{}; the replay puts it where the rules do",
                owed.inches,
                point(rules_end.position),
                rules_end.facing,
                if turned > FACING_TOLERANCE {
                    format!(", turned {turned:.0} degrees")
                } else {
                    String::new()
                }
            );
            r.here(Level::Error, message, rule.clone());
        }
        self.fall_back_in_the_way(r, &owed, rules_end, &rule);
        self.make_fall_back(r, &owed, rules_end);
        true
    }

    /// What stands in the way of a fall back, as for any move (Ch16 3.3): impassable ground, the
    /// table edge, units it would end on or pass through. Its length is the rule's own, not the
    /// unit's movement. Reported at the line; the unit falls back all the same (what stops a
    /// fall back short, the rulebook does not say).
    fn fall_back_in_the_way(&self, r: &mut Replayer<'_>, owed: &OwedFallBack, end: Pose, rule: &str) {
        let formation = self.state.unit(owed.unit).map(|u| u.formation.clone()).unwrap_or_default();
        let Some(mover) = self.mover(owed.unit, &formation) else { return };
        let friend_ids = self.friends_of(owed.unit);
        let friends: Vec<Body> =
            friend_ids.iter().filter_map(|other| self.bodies.get(other).copied()).collect();
        let friend_names: Vec<String> = friend_ids.iter().map(|&other| self.name(other)).collect();
        let mv = Move {
            mover,
            kind: MoveKind::FallBack,
            start: owed.from,
            waypoints: &[],
            end,
            ground: self.state.weather.ground,
            friends: &friends,
        };
        let report = battlefield::check_move(&self.bf, &self.rules.data, &self.rules.rulings, &mv);
        for finding in report.violations().filter(|f| !matches!(f.kind, FindingKind::TooFar { .. })) {
            let said = named_friend(&finding.kind, &friend_names);
            r.here(
                Level::Error,
                format!("{}'s fall back: {said}", self.name(owed.unit)),
                format!("{rule}, {}", finding.rule),
            );
        }
    }

    /// A `fall_back` line outside Phase 2 for a unit that owes none.
    pub(super) fn no_fall_back_owed(&self, r: &mut Replayer<'_>, id: UnitId) {
        let message = format!(
            "{} owes no fall back here: a fall back in good order is a move of Phase 2 (Ch16 3.3); in another \
             phase the log records only a fall back the rules impose, on the line right after the action that \
             caused it (RULE-07-1.5, RULINGS C5, G14)",
            self.name(id)
        );
        r.here(Level::Error, message, "Ch16 3.3, RULE-07-1.5");
    }
}

#[cfg(test)]
mod situations;
