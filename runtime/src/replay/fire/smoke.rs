//! The smoke a line of fire meets, from the markers on the table (RULE-05-5.1, 5.2, Ch16 5.7,
//! RULINGS G11), and the Smoke Walls those markers merge into (RULE-05-5.5, Ch16 5.7, RULINGS
//! C32, dotc D5).
//!
//! A wall is formed afresh for every volley from the markers as they stand: at least the
//! stdlib's `smoke_wall` count (3) of regiments (not batteries) of one brigade, each carrying a
//! marker (it fired from where it stands and has not moved on since), each within the rule's
//! `within` gap (1", the widest lateral interval of Ch16 3.3) of another of them; the wall is the
//! hull of their markers, gaps included ("a continuous Smoke Wall"). It blocks sight only beyond
//! its 8"; nearer, a line through it costs the smoke's -1 beyond 6" like any marker (RULE-05-5.2,
//! 5.3). Which lines it blocks is dotc D5 (`smoke_wall_blocks`): by default only a line that
//! crosses it, not one that starts or ends at one of its own regiments.

use super::*;
use crate::battlefield::{Smoker, smoke_walls};
use crate::rulings::SmokeWallBlocks;

impl Game {
    /// The Smoke Walls on the table now: each the ids of its regiments, in the order of the
    /// table's units (RULE-05-5.5, RULINGS C32).
    pub(in crate::replay) fn smoke_wall_units(&self) -> Vec<Vec<UnitId>> {
        let smoking: Vec<(UnitId, &Body, Option<usize>)> = self
            .bodies
            .iter()
            .filter_map(|(id, body)| {
                let u = self.state.unit(*id)?;
                let regiment = u.markers.gunsmoke && !u.is_battery() && !u.removed && u.on_table;
                regiment.then(|| (*id, body, u.brigade.map(|b| b.0)))
            })
            .collect();
        let smokers: Vec<Smoker<'_>> =
            smoking.iter().map(|&(_, body, brigade)| Smoker { body, brigade }).collect();
        smoke_walls(&smokers, &self.bf.smoke)
            .into_iter()
            .map(|group| group.into_iter().map(|i| smoking[i].0).collect())
            .collect()
    }

    /// The wall a group of regiments makes (their merged markers).
    fn wall_area(&self, units: &[UnitId]) -> Smoke {
        let bodies: Vec<&Body> = units.iter().filter_map(|id| self.bodies.get(id)).collect();
        Smoke::wall_of(&bodies, self.bf.smoke.size)
    }

    /// Whether a wall stands in the way of fire from `firer` at `target` at all, by dotc D5: under
    /// `lines_across` not when either is one of its regiments.
    fn wall_counts(&self, wall: &[UnitId], firer: UnitId, target: Option<UnitId>) -> bool {
        match self.rules.rulings.smoke_wall_blocks {
            SmokeWallBlocks::LinesAcross => {
                !wall.contains(&firer) && target.is_none_or(|t| !wall.contains(&t))
            }
            SmokeWallBlocks::AnyLine => true,
        }
    }

    /// The smoke `firer`'s fire at `target` meets, for the line of sight: every other unit's
    /// marker (the engine counts the firer's own), and the walls that stand in the way of this
    /// volley (dotc D5).
    pub(in crate::replay) fn smoke_for(&self, firer: UnitId, target: Option<UnitId>) -> Vec<Smoke> {
        let mut smoke: Vec<Smoke> = self
            .bodies
            .iter()
            .filter(|(other, _)| {
                **other != firer && self.state.unit(**other).is_some_and(|u| u.markers.gunsmoke)
            })
            .map(|(_, b)| Smoke::marker_of(b, self.bf.smoke.size))
            .collect();
        for wall in self.smoke_wall_units() {
            if self.wall_counts(&wall, firer, target) {
                smoke.push(self.wall_area(&wall));
            }
        }
        smoke
    }

    /// Why a Smoke Wall blocks fire from `firer` at `target`, in words a player can check: the
    /// wall's regiments, their brigade, and the range beyond the wall's reach (RULE-05-5.5).
    pub(in crate::replay) fn smoke_wall_block(&self, firer: UnitId, target: UnitId, beyond: f64) -> String {
        let (Some(fb), Some(tb)) = (self.bodies.get(&firer), self.bodies.get(&target)) else {
            return format!("a Smoke Wall stands in the line, and the target is beyond {beyond}\"");
        };
        let line = battlefield::range::range_line(fb, tb);
        let range = battlefield::range::range(fb, tb);
        let wall = self.smoke_wall_units().into_iter().find(|wall| {
            self.wall_counts(wall, firer, Some(target))
                && geo::Intersects::intersects(self.wall_area(wall).area(), &line)
        });
        let tname = self.name(target);
        let Some(wall) = wall else {
            return format!(
                "a Smoke Wall stands in the line, and {tname} is {range:.1}\" away, beyond {beyond}\""
            );
        };
        let names: Vec<String> = wall.iter().map(|&id| self.name(id)).collect();
        let names = match names.as_slice() {
            [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        };
        let brigade = wall
            .first()
            .and_then(|&id| self.state.unit(id))
            .and_then(|u| u.brigade)
            .and_then(|b| self.state.brigades.get(b.0))
            .map_or_else(String::new, |b| format!(" ({})", b.name));
        let which = match self.rules.rulings.smoke_wall_blocks {
            SmokeWallBlocks::LinesAcross => "the line crosses it",
            SmokeWallBlocks::AnyLine => "the line meets it",
        };
        format!(
            "the Smoke Wall of {names}{brigade} stands in the way ({which}), and {tname} is {range:.1}\" \
             away, beyond the {beyond}\" a wall lets sight through"
        )
    }
}
