//! Fire at a target that is not a whole unit: a solitary brigadier (RULE-07-4.5, dotc D3),
//! `fire "Unit" at "Brig. Name" ...`, and a regiment's detached skirmish screen (Ch16 3.4,
//! RULINGS G12), `fire "Unit" at "Regiment" screen ...`.
//!
//! Both are Phase 3 volleys of the active side, with the same eligibility as any (RULE-05-1.2)
//! and the same front arc (RULE-05-1.4), reach and sight. Beyond those:
//!
//! - a brigadier may be fired at only when no regiment is attached to him, he is within the
//!   stdlib's `reaction solitary_brigadier` distance of the firer (6"), and no enemy unit the
//!   firer can see in its arc is nearer (RULE-07-4.5); the finding names what is nearer and
//!   how far. Range is measured from the firer's colours to his position.
//! - a screen is fired at where it stands (the maneuver replay keeps it), and it must be the
//!   nearest enemy in the arc but for its own parent behind it (RULE-05-1.3, RULINGS C16).
//!
//! What the hits do is the engine's ([`crate::engine::fire::solitary`]). Opportunity Fire at
//! either is not replayed yet: the line is a note and changes nothing.

use super::*;
use crate::engine::fire::solitary::{
    SideVolleyReport, volley_at_holders, volley_at_leader, volley_at_screen,
};
use crate::engine::state::{LeaderId, LeaderRank};
use crate::geometry::MEASURE_PRECISION;

/// The `screen` word of `fire "Unit" at "Regiment" screen`.
pub(super) const SCREEN_WORD: &str = "screen";
/// The `holders` word of `fire "Unit" at "Regiment" holders` (Ch13 6.0).
pub(super) const HOLDERS_WORD: &str = "holders";

impl Game {
    /// Only the active side's Phase 3 fires at a brigadier or a screen here; Opportunity Fire at
    /// one is a note (not replayed), any other phase an error (RULE-05-1.1).
    fn side_target_phase(&self, r: &mut Replayer<'_>, firer: UnitId, what: &str) -> bool {
        match (r.phase, self.is_active(r, firer)) {
            (PhaseKind::Fire, true) => true,
            (PhaseKind::Maneuver, false) => {
                let message =
                    format!("Opportunity Fire at {what} is not replayed yet: its effects are not applied");
                r.here(Level::Note, message, "Ch16 6.0");
                false
            }
            _ => {
                let message = format!(
                    "{} fires at {what} out of its own side's Phase 3: only the active side fires in the \
                     Ranged Combat Phase",
                    self.name(firer)
                );
                r.here(Level::Error, message, "RULE-05-1.1, Ch16 1.0");
                false
            }
        }
    }

    /// The nearest enemy unit on the table, other than `except`, that the firer sees in its front
    /// arc and that is nearer than `than` inches (measured as fire is, RULINGS G4).
    fn nearer_enemy(
        &self,
        firer: UnitId,
        fb: &Body,
        than: f64,
        except: Option<UnitId>,
    ) -> Option<(f64, UnitId)> {
        let side = self.state.unit(firer)?.side;
        let mut nearer: Vec<(f64, UnitId)> = self
            .bodies
            .iter()
            .filter(|(id, _)| Some(**id) != except && **id != firer)
            .filter(|(id, _)| self.state.unit(**id).is_some_and(|u| u.side != side && !u.removed))
            .filter(|(_, b)| self.in_arc(firer, fb, b))
            .map(|(id, b)| (battlefield::range::range(fb, b), *id, b))
            .filter(|(d, _, _)| *d < than - MEASURE_PRECISION)
            .filter(|&(_, id, b)| self.fire_input_at(firer, Some(id), fb, b, FireKind::Phase3).1.visible)
            .map(|(d, id, _)| (d, id))
            .collect();
        nearer.sort_by(|a, b| a.0.total_cmp(&b.0));
        nearer.first().copied()
    }

    /// The firer's to-hit dice against what the rules gave, then the claim; the events first.
    fn side_volley_done(
        r: &mut Replayer<'_>,
        action: &Action,
        dice: &LogDice<'_>,
        report: &SideVolleyReport,
        at_leader: bool,
    ) {
        r.emit(report.events.iter().cloned());
        let (recorded, used) = to_hit_counts(dice);
        if recorded > used {
            let message = format!(
                "the rules give {} to-hit {} for this volley, the log rolls {recorded}: {}",
                report.dice,
                if report.dice == 1 { "die" } else { "dice" },
                report.pool.join("; ")
            );
            r.here(Level::Error, message, "RULE-05-2.1, Ch16 5.2, 5.3, RULINGS G16");
            r.keep_filled(dice);
        } else {
            r.dice_done(dice, "RULE-05-1.1, Ch16 5.0");
        }
        if let Some(claim) = &action.claim {
            claims::check_side_volley(r, claim, report, at_leader);
        }
    }

    /// `fire "Unit" at "Brig. Name" ...`: a volley at a solitary brigadier (RULE-07-4.5). Refused,
    /// with the reason, when he is attached, beyond reach, or not the nearest enemy the firer
    /// sees; otherwise the volley calls the leader casualty roll of dotc D3.
    pub(super) fn fire_at_leader(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        firer: UnitId,
        lid: LeaderId,
    ) {
        const RULE: &str = "RULE-07-4.5";
        let (Some(l), Some(f)) = (self.state.leader(lid).cloned(), self.state.unit(firer)) else { return };
        let (fname, lname) = (f.name.clone(), l.name.clone());
        if l.side == f.side {
            return r.here(Level::Error, format!("{lname} is a leader of {fname}'s own side"), "RULE-05-1.3");
        }
        if l.removed || l.from_turn > r.turn {
            return r.here(Level::Error, format!("{lname} is not on the table"), RULE);
        }
        if l.rank == LeaderRank::Commander {
            let message = format!(
                "{lname} commands above the brigade: RULE-07-4.5 makes only a solitary brigadier a target"
            );
            return r.here(Level::Error, message, RULE);
        }
        if let Some(regiment) = l.attached.map(|u| self.name(u)) {
            let message = format!(
                "{lname} is attached to {regiment}, not solitary: fire at {regiment}, whose losses put him at \
                 risk (RULE-07-4.3)"
            );
            return r.here(Level::Error, message, "RULE-07-4.5, RULE-07-4.3");
        }
        let position = self.leader_positions.get(&lname).copied();
        let Some(position) = position.filter(|_| !l.removed && l.from_turn <= r.turn) else {
            return r.here(Level::Error, format!("{lname} is not on the table"), RULE);
        };
        if !self.side_target_phase(r, firer, &lname) || !self.may_fire_in_phase_three(r, firer) {
            return;
        }
        let Some(fb) = self.bodies.get(&firer).copied() else {
            return r.here(Level::Error, format!("{fname} is not on the table"), "RULE-05-1.1");
        };
        // His stand: one stand's width, its front edge centred on his position, facing the firer.
        let colours = fb.colours();
        let (dx, dy) = (colours.x() - position.0, colours.y() - position.1);
        let facing = dx.atan2(dy).to_degrees().rem_euclid(360.0);
        let lb =
            Body::new(position, facing, crate::geometry::Layout::new(1, None, 0.0, fb.layout.stand_width));
        if !self.in_arc(firer, &fb, &lb) {
            let message = format!("{lname} is outside {fname}'s 45-degree front arc");
            return r.here(Level::Error, message, "RULE-05-1.4, Ch16 4.5, RULINGS G13");
        }
        let range = crate::geometry::measured(dx.hypot(dy));
        let within = self.rules.tables.solitary_within;
        if range > within + MEASURE_PRECISION {
            let message = format!(
                "{lname} is {range:.1}\" from {fname}: a solitary brigadier may be fired at only from within \
                 {within}\""
            );
            return r.here(Level::Error, message, RULE);
        }
        let (mut input, sight) = self.fire_input_at(firer, None, &fb, &lb, FireKind::Phase3);
        if !sight.visible {
            let message = format!("{fname} has no clear line of sight to {lname}");
            return r.here(Level::Error, message, "RULE-07-4.5, RULE-05-1.2, RULINGS G4");
        }
        if let Some((distance, nearest)) = self.nearer_enemy(firer, &fb, range, None) {
            let message = format!(
                "{lname} ({range:.1}\") is not the nearest enemy {fname} can see: {} is {distance:.1}\" away",
                self.name(nearest)
            );
            return r.here(Level::Error, message, RULE);
        }
        input.range = range;
        input.pivoted = self.book.unit_turn(r.turn, firer).motion.pivoted;
        let mut dice = LogDice::new(dice_of(action, Purpose::ToHit), self.seeded.as_mut());
        match volley_at_leader(&self.rules, &mut self.state, firer, lid, &input, &mut dice) {
            Ok(report) => Game::side_volley_done(r, action, &dice, &report, true),
            Err(e) => r.refused(&e, "RULE-07-4.5, RULE-05-2.1, dotc D3"),
        }
    }

    /// The checks every volley at one stand of a regiment shares (a screen ahead of it, its horse
    /// holders behind it), `what` standing at `at`: the phase, the firer's right to fire, the
    /// front arc, the reach and the sight, and that no enemy in the arc (but `except`) is nearer.
    /// The volley's input, or None when a finding has said why not.
    fn fire_at_stand(
        &mut self,
        r: &mut Replayer<'_>,
        firer: UnitId,
        parent: UnitId,
        at: (f64, f64),
        what: &str,
        except: Option<UnitId>,
    ) -> Option<FireInput> {
        let (fname, pname) = (self.name(firer), self.name(parent));
        if !self.side_target_phase(r, firer, what) || !self.may_fire_in_phase_three(r, firer) {
            return None;
        }
        let (Some(fb), Some(pb)) = (self.bodies.get(&firer).copied(), self.bodies.get(&parent).copied())
        else {
            r.here(Level::Error, format!("{fname} or {pname} is not on the table"), "RULE-05-1.1");
            return None;
        };
        let sb = Game::lone_stand(&pb, at);
        if !self.in_arc(firer, &fb, &sb) {
            let message = format!("{what} is outside {fname}'s 45-degree front arc");
            r.here(Level::Error, message, "RULE-05-1.4, Ch16 4.5, RULINGS G13");
            return None;
        }
        let range = battlefield::range::range(&fb, &sb);
        let u = self.state.unit(firer);
        if let Some(weapon) =
            u.and_then(|u| self.rules.data.weapon(&u.weapon).map(|w| (w, weapon_arm(&u.arm))))
        {
            let (weapon, arm) = weapon;
            if battlefield::range::band(weapon, arm, range).is_none() {
                let message = format!(
                    "{what} is out of range: {range:.1}\" from {fname}, whose {} reach {}\"",
                    weapon.meta.title(),
                    weapon.max_range(arm)
                );
                r.here(Level::Error, message, "RULE-05-2.2, 2.3, Ch16 5.2, 5.3, 10.3, RULINGS G4");
                return None;
            }
        }
        let (mut input, sight) = self.fire_input_at(firer, None, &fb, &sb, FireKind::Phase3);
        if !sight.visible {
            let message = format!("{fname} has no clear line of sight to {what}");
            r.here(Level::Error, message, "RULE-05-1.2, RULINGS G4");
            return None;
        }
        // RULE-05-1.3, RULINGS C16: any other enemy nearer in the arc has the priority.
        if let Some((distance, nearest)) = self.nearer_enemy(firer, &fb, range, except) {
            let message = format!(
                "{fname} must fire at the nearest enemy in its arc, {} ({distance:.1}\"), not {what} ({range:.1}\")",
                self.name(nearest)
            );
            r.here(Level::Error, message, "RULE-05-1.3, RULINGS C16");
            return None;
        }
        // Enfilade does not apply to a lone stand.
        input.enfilade = false;
        input.pivoted = self.book.unit_turn(r.turn, firer).motion.pivoted;
        Some(input)
    }

    /// `fire "Unit" at "Regiment" screen ...`: a volley at a regiment's skirmish screen (Ch16
    /// 3.4, RULINGS G12), where it stands. The screen stands in front of its parent, so only its
    /// parent does not take the priority from it.
    pub(super) fn fire_at_screen(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        firer: UnitId,
        parent: UnitId,
    ) {
        const RULE: &str = "Ch16 3.4, RULINGS G12";
        let pname = self.name(parent);
        let what = format!("{pname}'s skirmish screen");
        let at = self.book.screens.get(&pname).copied();
        let Some(at) =
            at.filter(|_| self.state.unit(parent).is_some_and(|u| u.screen.is_some() && !u.removed))
        else {
            return r.here(Level::Error, format!("{pname} has no skirmish screen out"), RULE);
        };
        // No cover save for a screen (RULINGS G12).
        let Some(input) = self.fire_at_stand(r, firer, parent, at, &what, Some(parent)) else { return };
        let mut dice = LogDice::new(dice_of(action, Purpose::ToHit), self.seeded.as_mut());
        let removed = match volley_at_screen(&self.rules, &mut self.state, firer, parent, &input, &mut dice) {
            Ok(report) => {
                Game::side_volley_done(r, action, &dice, &report, false);
                report.screen_removed
            }
            Err(e) => {
                r.refused(&e, RULE);
                false
            }
        };
        if removed {
            self.book.screens.remove(&pname);
        }
        self.sync_bodies();
    }

    /// `fire "Unit" at "Regiment" holders ...`: a volley at dismounted cavalry's horse holders
    /// (module `horse_holders`, Ch13 6.0, dotc D24), where they stand. They stand behind their
    /// line, so the line, if nearer in the arc, takes the priority.
    pub(super) fn fire_at_holders(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        firer: UnitId,
        parent: UnitId,
    ) {
        const RULE: &str = "Ch13 6.0, dotc D24";
        let pname = self.name(parent);
        if !self.rules.module(super::super::holders::MODULE) {
            let message = format!(
                "{pname}'s horse holders are a target only with the horse_holders module (Ch13 6.0): fire at \
                 the regiment"
            );
            return r.here(Level::Error, message, RULE);
        }
        let Some(at) = self.book.holders.get(&pname).copied() else {
            return r.here(Level::Error, format!("{pname} has no horse holders on the table"), "Ch16 10.2");
        };
        let what = format!("{pname}'s horse holders");
        let Some(input) = self.fire_at_stand(r, firer, parent, at, &what, None) else { return };
        let mut dice = LogDice::new(dice_of(action, Purpose::ToHit), self.seeded.as_mut());
        match volley_at_holders(&self.rules, &mut self.state, firer, parent, &input, &mut dice) {
            Ok(report) => {
                Game::side_volley_done(r, action, &dice, &report, false);
                if report.holders_lost {
                    self.book.holders.remove(&pname);
                }
            }
            Err(e) => r.refused(&e, RULE),
        }
        self.sync_bodies();
    }
}
