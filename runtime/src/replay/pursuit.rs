//! Uncontrollable pursuit (Ch13 12.0, module `uncontrollable_pursuit`, dotc D21): the forced
//! move of a frenzied melee victor, made on the table.
//!
//! The engine says that a victor failed its frenzy check (`What::Pursuit`, the inches of the
//! rule data's `maneuver pursuit`); the log records the move on the line right after the action
//! whose melee caused it, in the same phase, as it records an imposed fall back:
//! `pursue "Unit" to (x, y)` (or `pursue "Unit"`, which is the same place). Under dotc D21 the
//! move is measured from the unit's colours (the centre of its front, RULE-05-1.4) to the
//! nearest point of the nearest enemy unit on the table or to the nearest objective, whichever
//! is nearer (the enemy unit on a tie); the unit turns to face that point and its colours go
//! straight at it the full distance, or up to the point if it is nearer. Nothing else stops it
//! short or is checked on the way: the move is not the unit's to steer. With no enemy unit and
//! no objective on the table it stays where it is. At the move's end the unit is disordered
//! ([`crate::engine::melee::end_pursuit`]).
//!
//! The replay checks the logged end against the rules' within the fixed moves' tolerance, and
//! says whether the log's move is the wrong length or the wrong way. A log that leaves the line
//! out is an error at the action that frenzied the unit, naming the line to add, and the replay
//! makes the move itself; a `pursue` line for a unit that owes none is an error and moves nothing.

use super::maneuver::{facing_arg, point, to_arg};
use super::*;
use crate::battlefield::movement::{FACING_TOLERANCE, POSITION_TOLERANCE, bearing_gap};
use crate::battlefield::range::{distance_to, nearest_point};

/// A pursuit the rules imposed and the log has yet to record (Ch13 12.0).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct OwedPursuit {
    unit: UnitId,
    inches: f64,
    /// Where the unit stood when it was frenzied.
    from: Body,
    /// What it pursues, by name, and the point its colours go straight at (dotc D21); None when
    /// there is neither an enemy unit nor an objective on the table.
    quarry: Option<(String, (f64, f64))>,
    /// The action whose melee frenzied it.
    span: Span,
}

impl OwedPursuit {
    /// This pursuit with the span of its cause moved by an edit of the log; None when the edit
    /// replaced it (`resume.rs`).
    pub(super) fn mapped(&self, map: impl Fn(Span) -> Option<Span>) -> Option<OwedPursuit> {
        Some(OwedPursuit { span: map(self.span)?, ..self.clone() })
    }

    /// Where the rules put the unit (dotc D21): facing its quarry's point, its colours `inches`
    /// straight at it, or on it when it is nearer.
    fn end(&self) -> Pose {
        pursuit_end(&self.from, self.quarry.as_ref().map(|q| q.1), self.inches)
    }
}

/// Where a pursuit from `from` toward `toward` ends (Ch13 12.0, dotc D21): the colours move
/// `inches` straight at the point, or up to it if it is nearer, and the unit faces it. Without a
/// point, or with the colours already on it, the unit does not move.
pub(super) fn pursuit_end(from: &Body, toward: Option<(f64, f64)>, inches: f64) -> Pose {
    let Some(to) = toward else { return Pose::of(from) };
    let (dx, dy) = (to.0 - from.position.0, to.1 - from.position.1);
    let gap = dx.hypot(dy);
    if gap <= POSITION_TOLERANCE {
        return Pose::of(from);
    }
    let step = inches.min(gap);
    let position = (from.position.0 + dx / gap * step, from.position.1 + dy / gap * step);
    // Compass bearing: 0 = north (+y), 90 = east (+x).
    let facing = dx.atan2(dy).to_degrees().rem_euclid(360.0);
    Pose::new(position, facing)
}

impl Game {
    /// dotc D21: the nearest enemy unit on the table or objective to the colours of `from`, and
    /// the point the pursuit goes straight at (the enemy's nearest point, the objective's own).
    /// An enemy unit wins a tie.
    fn quarry(&self, id: UnitId, from: &Body) -> Option<(String, (f64, f64))> {
        let side = self.state.unit(id)?.side;
        let colours = from.colours();
        let mut best: Option<(f64, String, (f64, f64))> = None;
        for (&other, body) in &self.bodies {
            let Some(u) = self.state.unit(other) else { continue };
            if u.side == side || u.removed || !u.on_table {
                continue;
            }
            let gap = distance_to(colours, body);
            if best.as_ref().is_none_or(|b| gap < b.0) {
                let at = nearest_point(colours, body);
                best = Some((gap, u.name.clone(), (at.x(), at.y())));
            }
        }
        for objective in &self.bf.objectives {
            let gap = (objective.at.0 - colours.x()).hypot(objective.at.1 - colours.y());
            if best.as_ref().is_none_or(|b| gap < b.0) {
                best = Some((gap, format!("objective {}", objective.name), objective.at));
            }
        }
        best.map(|(_, name, at)| (name, at))
    }

    /// After an action: the pursuits its events impose, each owed from where its unit stands.
    pub(super) fn owe_pursuits(&mut self, r: &Replayer<'_>, mark: usize) {
        for e in r.events.get(mark..).unwrap_or(&[]) {
            let What::Pursuit { unit, inches } = &e.event.what else { continue };
            let Some(id) = self.state.unit_named(unit) else { continue };
            let Some(from) = self.bodies.get(&id).copied() else { continue };
            let quarry = self.quarry(id, &from);
            self.pursuits.retain(|o| o.unit != id);
            self.pursuits.push(OwedPursuit { unit: id, inches: *inches, from, quarry, span: e.span });
        }
    }

    /// Whether `action` is a `pursue` line for a unit that owes one: the owed fall backs wait
    /// for it too, as the owed pursuits wait for a `fall_back` line (`fall_back.rs`).
    pub(super) fn records_a_pursuit(&self, action: &Action) -> bool {
        action.verb.value == ManeuverVerb::Pursue.word()
            && unit_arg(action)
                .and_then(|n| self.state.unit_named(&n.value))
                .is_some_and(|id| self.pursuits.iter().any(|o| o.unit == id))
    }

    /// Before an action (`next`; None at a phase's end): the owed pursuits the log did not record
    /// right after their cause. Each is an error at its cause, and the replay makes the move
    /// itself. A `pursue` or owed `fall_back` line keeps them waiting.
    pub(super) fn overdue_pursuits(&mut self, r: &mut Replayer<'_>, next: Option<&Action>) {
        if self.pursuits.is_empty() {
            return;
        }
        if next.is_some_and(|action| self.records_a_pursuit(action) || self.records_a_fall_back(action)) {
            return;
        }
        for owed in std::mem::take(&mut self.pursuits) {
            let end = owed.end();
            let name = self.name(owed.unit);
            let message = format!(
                "{name} is frenzied and must pursue {}\" straight at {}, but the log does not record the move: \
                 add `pursue \"{name}\" to {}` on the line after this one; the replay moves it there",
                owed.inches,
                owed.quarry.as_ref().map_or("nothing (no enemy or objective on the table)", |q| q.0.as_str()),
                point(end.position)
            );
            r.find(owed.span, Level::Error, message, "Ch13 12.0, dotc D21");
            self.make_pursuit(r, &owed, end);
        }
    }

    /// Put the unit where its pursuit ends, then disorder it (Ch13 12.0: at the move's end).
    fn make_pursuit(&mut self, r: &mut Replayer<'_>, owed: &OwedPursuit, end: Pose) {
        let Some(now) = self.bodies.get(&owed.unit).copied() else { return };
        self.place(owed.unit, Body { position: end.position, facing: end.facing, ..now });
        let text = format!(
            "{} pursues {:.1}\" to {} facing {:.0}",
            self.name(owed.unit),
            (end.position.0 - owed.from.position.0).hypot(end.position.1 - owed.from.position.1),
            point(end.position),
            end.facing
        );
        r.emit([Event::new(What::Note { text }, "Ch13 12.0")]);
        let mut events = Vec::new();
        match crate::engine::melee::end_pursuit(&self.rules, &mut self.state, owed.unit, &mut events) {
            Ok(()) => r.emit(events),
            Err(e) => r.here(Level::Error, e.to_string(), "Ch13 12.0"),
        }
    }

    /// `pursue "Unit" [to (x, y) [facing F]]`: the forced move of a frenzied victor (Ch13 12.0,
    /// dotc D21), checked against the rules' end and made there.
    pub(super) fn pursue(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch13 12.0, dotc D21";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let name = self.name(id);
        let Some(at) = self.pursuits.iter().position(|o| o.unit == id) else {
            let message = format!(
                "{name} owes no pursuit here: only a regiment frenzied by a failed check after destroying or \
                 routing its enemy in melee pursues, on the line right after that melee"
            );
            return r.here(Level::Error, message, RULE);
        };
        let owed = self.pursuits.remove(at);
        let rules_end = owed.end();
        let logged = match to_arg(action) {
            Some(to) => Pose::new(to, facing_arg(action).unwrap_or(rules_end.facing)),
            None => rules_end,
        };
        let (off, turned) = rules_end.gap_to(&logged);
        if off > POSITION_TOLERANCE || turned > FACING_TOLERANCE {
            let start = owed.from.position;
            let rules_length = (rules_end.position.0 - start.0).hypot(rules_end.position.1 - start.1);
            let length = (logged.position.0 - start.0).hypot(logged.position.1 - start.1);
            let mut wrong = Vec::new();
            if (length - rules_length).abs() > POSITION_TOLERANCE {
                wrong.push(format!("the log's move is {length:.2}\", not {rules_length:.2}\""));
            }
            if length > POSITION_TOLERANCE && rules_length > POSITION_TOLERANCE {
                let way = |p: (f64, f64)| (p.0 - start.0).atan2(p.1 - start.1).to_degrees();
                let astray = bearing_gap(way(rules_end.position), way(logged.position));
                if astray > FACING_TOLERANCE {
                    wrong.push(format!("it heads {astray:.0} degrees off the line to its quarry"));
                }
            }
            if turned > FACING_TOLERANCE {
                wrong.push(format!("it ends turned {turned:.0} degrees from facing its quarry"));
            }
            if wrong.is_empty() {
                wrong.push(format!("the log puts it {off:.2}\" from there"));
            }
            let message = format!(
                "{name} pursues {}\" straight at the nearest enemy unit or objective, {}: to {} facing {:.0}; {}; \
                 the replay puts it where the rules do",
                owed.inches,
                owed.quarry.as_ref().map_or("with none on the table", |q| q.0.as_str()),
                point(rules_end.position),
                rules_end.facing,
                wrong.join(", ")
            );
            r.here(Level::Error, message, RULE);
        }
        self.make_pursuit(r, &owed, rules_end);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::geometry::Layout;

    const SCENARIO: &str = include_str!("../../../tests/rules/modules/uncontrollable_pursuit.dotc");
    const GAME: &str = include_str!("../../../tests/rules/modules/uncontrollable_pursuit-game.dotc");

    struct Suite;

    impl dotc_lang::Loader for Suite {
        fn load(&self, path: &Path) -> Result<String, String> {
            if path.ends_with("uncontrollable_pursuit.dotc") {
                Ok(SCENARIO.to_string())
            } else {
                Err("not found".into())
            }
        }
    }

    /// The module's log with `from` replaced by `to`, replayed; its errors' messages.
    fn errors_with(from: &str, to: &str) -> Vec<String> {
        assert!(GAME.contains(from), "{from}");
        let game = GAME.replace(from, to);
        let analysis = dotc_lang::analyze(Path::new("modules/test.dotc"), &game, &Suite);
        let replay = replay(&analysis, &ReplayOptions { source: Some(&game), ..ReplayOptions::default() });
        replay.findings.iter().filter(|f| f.level == Level::Error).map(|f| f.message.clone()).collect()
    }

    /// Ch13 12.0, dotc D21: the log as written has only the one error it allows (A3 pursued
    /// 4" where B4 stops it at 3.5").
    #[test]
    fn ch13_12_0_the_module_log_has_its_one_allowed_error() {
        let errors = errors_with("", "");
        assert_eq!(errors.len(), 1, "{errors:#?}");
        assert!(errors[0].contains("the log's move is 4.00\", not 3.50\""), "{errors:#?}");
    }

    /// Ch13 12.0, dotc D21: a pursuit the log leaves out is an error naming the line to add (A1
    /// owes (22.4, 19.2)), and the replay makes the move and the Disorder itself.
    #[test]
    fn ch13_12_0_a_pursuit_left_out_is_an_error() {
        let errors = errors_with("        pursue \"A1\" to (22.4, 19.2)\n", "");
        assert!(errors.iter().any(|e| e.contains("add `pursue \"A1\" to (22.4, 19.2)`")), "{errors:#?}");
    }

    /// Ch13 12.0, dotc D21: a pursuit the wrong way (A1 straight ahead 4" to (20, 20), where the
    /// objective lies 36.9 degrees to the right) is an error saying so.
    #[test]
    fn ch13_12_0_a_pursuit_the_wrong_way_is_an_error() {
        let errors = errors_with("pursue \"A1\" to (22.4, 19.2)", "pursue \"A1\" to (20, 20)");
        let a1: Vec<&String> = errors.iter().filter(|e| e.starts_with("A1 ")).collect();
        assert_eq!(a1.len(), 1, "{errors:#?}");
        assert!(
            a1[0].contains("heads 37 degrees off the line") && !a1[0].contains("the log's move is"),
            "{a1:#?}"
        );
    }

    /// Ch13 12.0: a regiment that passed its check (A2 rolled 4) owes no pursuit.
    #[test]
    fn ch13_12_0_no_pursuit_after_a_passed_check() {
        let line = "            melee roll [4] vs [2] discipline [4] => attacker wins\n        }\n";
        let errors = errors_with(line, &format!("{line}        pursue \"A2\" to (30, 20)\n"));
        assert!(errors.iter().any(|e| e.contains("A2 owes no pursuit here")), "{errors:#?}");
    }

    fn line_at(position: (f64, f64), facing: f64) -> Body {
        Body::new(position, facing, Layout::new(5, Some(5), 0.0, 1.0))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// Ch13 12.0, dotc D21: a 3-4-5 triangle. From (10, 10) to a point at (13, 14), 5" away: the
    /// 4" move ends 4/5 of the way, at (12.4, 13.2), facing atan2(3, 4) = 36.87 degrees.
    #[test]
    fn ch13_12_0_the_pursuit_goes_four_inches_straight_at_its_quarry() {
        let end = pursuit_end(&line_at((10.0, 10.0), 0.0), Some((13.0, 14.0)), 4.0);
        assert!(close(end.position.0, 12.4) && close(end.position.1, 13.2), "{end:?}");
        assert!((end.facing - 36.869_897_645).abs() < 1e-6, "{end:?}");
    }

    /// Ch13 12.0, dotc D21: a quarry nearer than 4" (due west, 2.5" away) stops the move on it,
    /// the unit turned to face west (270).
    #[test]
    fn ch13_12_0_the_pursuit_stops_at_a_nearer_quarry() {
        let end = pursuit_end(&line_at((10.0, 10.0), 0.0), Some((7.5, 10.0)), 4.0);
        assert!(close(end.position.0, 7.5) && close(end.position.1, 10.0), "{end:?}");
        assert!(close(end.facing, 270.0), "{end:?}");
        // With nothing to pursue it stays where it is.
        let still = pursuit_end(&line_at((10.0, 10.0), 90.0), None, 4.0);
        assert_eq!((still.position, still.facing), ((10.0, 10.0), 90.0));
    }
}
