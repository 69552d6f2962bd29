//! RULE-07-4.5: a charge at a solitary brigadier, `assault "Unit" -> "Brig. Name" ...`.
//!
//! A brigadier with no regiment attached, caught in the open by an enemy charge, makes an
//! evasion move at once or is captured. The log writes the evasion as the assault's one step,
//! `evade to (x, y) => evaded`; an assault with no `evade` step is a capture (`=> captured` on
//! the assault line). The charge is declared and paid as any other (Ch16 7.1, the engine's
//! [`charge_solitary_leader`]); the target must lie in the charger's front arc (Ch16 7.1,
//! RULINGS G13). The evasion, judged here, must:
//!
//! - be as long as the stdlib's `reaction solitary_brigadier` move says (6"), to within
//!   [`POSITION_TOLERANCE`];
//! - end farther from the charger's colours than he stood;
//! - end on the table, and cross no unit of the charging side and no impassable ground.
//!
//! An evasion that breaks one of these is an error and the line changes nothing: a brigadier
//! with no legal evasion is captured, and the log says so by leaving the step out.
//!
//! Judgements: "open ground" is ground outside every terrain area and building of the scenario;
//! a brigadier caught elsewhere is not covered by RULE-07-4.5, and the line is a note that
//! changes nothing. The charger stays where it stood (nothing is left to contact) but has
//! assaulted this turn and paid for it.

use geo::{Contains, Intersects, Line, Point};

use super::*;
use crate::battlefield::movement::POSITION_TOLERANCE;
use crate::engine::assault::charge_solitary_leader;
use crate::engine::state::{LeaderId, LeaderRank};

impl Game {
    /// Why an evasion from `from` to `to` away from the charger is not one RULE-07-4.5 allows,
    /// if it is not.
    fn evasion_fault(&self, charger: UnitId, cb: &Body, from: (f64, f64), to: (f64, f64)) -> Option<String> {
        let (least, most) = self.rules.tables.solitary_evasion;
        let length = crate::geometry::measured((to.0 - from.0).hypot(to.1 - from.1));
        if length < least - POSITION_TOLERANCE || length > most + POSITION_TOLERANCE {
            let should = if least == most { format!("{most}\"") } else { format!("{least}-{most}\"") };
            return Some(format!("the evasion is {length:.2}\" long, not {should}"));
        }
        let colours = cb.colours();
        let away = |p: (f64, f64)| (p.0 - colours.x()).hypot(p.1 - colours.y());
        if away(to) <= away(from) + crate::geometry::MEASURE_PRECISION {
            return Some(format!(
                "the evasion ends {:.1}\" from the charger's colours, no farther than the {:.1}\" he stood",
                away(to),
                away(from)
            ));
        }
        if let Some((w, h)) = self.bf.table
            && (!(0.0..=w).contains(&to.0) || !(0.0..=h).contains(&to.1))
        {
            return Some(format!("the evasion ends off the {w} x {h} table"));
        }
        let path = Line::new(geo::coord! { x: from.0, y: from.1 }, geo::coord! { x: to.0, y: to.1 });
        let side = self.state.unit(charger).map(|u| u.side);
        for (id, body) in &self.bodies {
            let Some(u) = self.state.unit(*id).filter(|u| Some(u.side) == side && !u.removed) else {
                continue;
            };
            if body.stands().iter().any(|stand| stand.intersects(&path)) {
                return Some(format!("the evasion runs into {}", u.name));
            }
        }
        for area in self.bf.areas.iter().filter(|a| a.flags.iter().any(|f| f == "impassable")) {
            if area.outline.intersects(&path) {
                let name = area.name.clone().unwrap_or_else(|| area.terrain.meta.title().to_string());
                return Some(format!("the evasion crosses impassable ground ({name})"));
            }
        }
        None
    }

    /// Whether a point is in the open: outside every terrain area and building.
    fn in_the_open(&self, at: (f64, f64)) -> bool {
        let p = Point::new(at.0, at.1);
        !self.bf.areas.iter().any(|a| a.outline.contains(&p))
            && !self.bf.buildings.iter().any(|b| b.footprint.as_ref().is_some_and(|f| f.contains(&p)))
    }

    /// `assault "Unit" -> "Brig. Name" { evade to (x, y) => evaded }`, or with no step
    /// `=> captured`: a charge at a solitary brigadier (RULE-07-4.5).
    pub(super) fn charge_leader(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        charger: UnitId,
        lid: LeaderId,
    ) {
        const RULE: &str = "RULE-07-4.5";
        let (Some(l), Some(c)) = (self.state.leader(lid).cloned(), self.state.unit(charger)) else { return };
        let (cname, lname) = (c.name.clone(), l.name.clone());
        if l.side == c.side {
            return r.here(Level::Error, format!("{lname} is a leader of {cname}'s own side"), "Ch16 7.1");
        }
        if l.removed || l.from_turn > r.turn {
            return r.here(Level::Error, format!("{lname} is not on the table"), RULE);
        }
        if l.rank == LeaderRank::Commander {
            let message = format!(
                "{lname} commands above the brigade: RULE-07-4.5 makes only a solitary brigadier the target \
                 of a charge"
            );
            return r.here(Level::Error, message, RULE);
        }
        if let Some(regiment) = l.attached.map(|u| self.name(u)) {
            let message = format!("{lname} is attached to {regiment}, not solitary: charge {regiment}");
            return r.here(Level::Error, message, RULE);
        }
        let position = self.leader_positions.get(&lname).copied();
        let Some(from) = position.filter(|_| !l.removed && l.from_turn <= r.turn) else {
            return r.here(Level::Error, format!("{lname} is not on the table"), RULE);
        };
        if let Some(step) =
            action.steps.iter().find(|s| AssaultStep::from_word(&s.verb.value) != Some(AssaultStep::Evade))
        {
            let message = format!(
                "a charge at a solitary brigadier has no `{}` step: he evades (`evade to (x, y)`) or is captured",
                step.verb.value
            );
            return r.find(step.span, Level::Error, message, RULE);
        }
        let Some(cb) = self.bodies.get(&charger).copied() else {
            return r.here(Level::Error, format!("{cname} is not on the table"), "Ch16 7.1");
        };
        let colours = cb.colours();
        let (dx, dy) = (colours.x() - from.0, colours.y() - from.1);
        let facing = dx.atan2(dy).to_degrees().rem_euclid(360.0);
        let lb = Body::new(from, facing, crate::geometry::Layout::new(1, None, 0.0, cb.layout.stand_width));
        if !arcs::in_front_arc(&cb, &lb) {
            let message = format!("{lname} is outside {cname}'s 45-degree front arc: he may not be charged");
            return r.here(Level::Error, message, "Ch16 7.1, RULINGS G13");
        }
        if !self.in_the_open(from) {
            let message = format!(
                "{lname} stands in terrain, not open ground: RULE-07-4.5 covers only the open, and this charge \
                 is not replayed yet"
            );
            return r.here(Level::Note, message, RULE);
        }
        let evade =
            action.steps.iter().find(|s| AssaultStep::from_word(&s.verb.value) == Some(AssaultStep::Evade));
        let to = evade.and_then(|s| {
            s.args.iter().find_map(|a| if let Arg::To(p) = a { Some((p.value.x, p.value.y)) } else { None })
        });
        if let Some(step) = evade {
            let Some(to) = to else {
                return r.find(
                    step.span,
                    Level::Error,
                    "`evade` needs the point he ends at: `evade to (x, y)`",
                    RULE,
                );
            };
            if let Some(fault) = self.evasion_fault(charger, &cb, from, to) {
                let message =
                    format!("{lname} may not evade so: {fault}; with no legal evasion he is captured");
                return r.find(step.span, Level::Error, message, RULE);
            }
        }
        let distance = crate::geometry::measured(dx.hypot(dy));
        let brigadier_distance = self.command_range(charger, &cb);
        let input = AssaultInput {
            distance,
            brigadier_distance,
            coordinated: false,
            closing_volley: None,
            melee: MeleeInput::default(),
        };
        match charge_solitary_leader(&self.rules, &mut self.state, charger, lid, &input, to.is_some()) {
            Ok(events) => {
                r.emit(events);
                if let Some(to) = to {
                    self.leader_positions.insert(lname, to);
                }
                let captured = to.is_none();
                for claim in action.claim.iter().chain(evade.and_then(|s| s.claim.as_ref())) {
                    claims::check_evasion(r, claim, captured, "the solitary brigadier", RULE);
                }
            }
            Err(e) => self.assault_refused(r, &e, "Ch16 7.1, RULE-07-4.5"),
        }
    }
}
