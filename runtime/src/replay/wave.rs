//! The Wave Attack in the replay (module `wave_attack`, Ch13 23.0, dotc D26).
//!
//! - `wave "Brigadier" "Lead" "Support" [...] [=> pips]`, in its side's Phase 1, authorises a
//!   wave for the stdlib's `order wave_attack` (2 pips, priced by the lead's command tier). Each
//!   regiment after the lead must stand straight behind the one before it: facing the same way,
//!   its front edge no more than the order's `adjacent_within` (1") behind that one's rear edge,
//!   and its colours within that one's frontage. The engine checks the rest
//!   ([`crate::engine::wave::authorise`]).
//! - In that turn no regiment of the wave fires (said at the `fire` line, in
//!   `Game::module_limits`).
//! - `assault "Support" -> "Target" surge { melee ... }` completes a charge of the regiment ahead
//!   that ended short (stalled, or destroyed) at the same target, free and with no closing
//!   volley, measured as the stalled charge was (`Game::assault`, [`Game::surge`]).
//! - Each hit of a battery's solid shot or shell (any band but canister) on a regiment of a wave
//!   whose next regiment still stands stacked behind it puts a stray hit on that one
//!   ([`Game::magnet`], after every volley).

use super::*;
use crate::battlefield::movement::{FACING_TOLERANCE, POSITION_TOLERANCE};
use crate::engine::state::BrigadeId;
use crate::engine::wave;

/// The rule data id of the Wave Attack's order (Ch13 23.0): its phase, pips and spacing.
pub(super) const WAVE_ORDER: &str = "wave_attack";

/// The word after an assault's target that makes it a wave's surge.
pub(super) const SURGE_WORD: &str = "surge";

const RULE: &str = "Ch13 23.0, dotc D26";

impl Game {
    /// Why `back` does not stand straight behind `front` within `gap` inches, if it does not.
    fn not_stacked(&self, front: UnitId, back: UnitId, gap: f64) -> Option<String> {
        let (Some(fb), Some(bb)) = (self.bodies.get(&front), self.bodies.get(&back)) else {
            return Some("it is not on the table".to_string());
        };
        let turn = (bb.facing - fb.facing).rem_euclid(360.0);
        if turn.min(360.0 - turn) > FACING_TOLERANCE {
            return Some(format!(
                "it faces {:.0} degrees, not {:.0} as the regiment ahead",
                bb.facing, fb.facing
            ));
        }
        let colours = bb.colours();
        let (across, ahead) = fb.frame().to_local(geo::Coord { x: colours.x(), y: colours.y() });
        let behind = crate::geometry::measured(-ahead - fb.depth());
        if behind < -POSITION_TOLERANCE || behind > gap + POSITION_TOLERANCE {
            return Some(format!(
                "its front is {behind:.1}\" behind the rear of the regiment ahead, not 0-{gap}\""
            ));
        }
        if across.abs() > fb.half_width() + POSITION_TOLERANCE {
            return Some(format!(
                "its colours are {:.1}\" aside of the regiment ahead's centre, beyond its front",
                across.abs()
            ));
        }
        None
    }

    /// `wave "Brigadier" "Lead" "Support" ...`: a brigadier authorises a Wave Attack (Ch13 23.0).
    pub(super) fn wave(&mut self, r: &mut Replayer<'_>, action: &Action) {
        if !self.rules.module(wave::WAVE_ATTACK) {
            let message =
                "the Wave Attack module (Ch13 23.0) is not in force in this game: no wave is formed";
            return r.here(Level::Error, message, RULE);
        }
        let Some(leader) = unit_arg(action).map(|n| n.value.clone()) else { return };
        let Some(b) = self.brigade_of_leader(&leader).map(BrigadeId) else {
            let message = format!("{leader} commands no brigade: he cannot authorise a wave");
            return r.here(Level::Error, message, RULE);
        };
        let names: Vec<&ast::Name> = action
            .args
            .iter()
            .filter_map(|a| if let Arg::Unit(n) = a { Some(n) } else { None })
            .skip(1)
            .collect();
        if names.len() < 2 {
            let message = "a wave names its regiments front to back, two or more: `wave \"Brigadier\" \"Lead\" \"Support\"`";
            return r.here(Level::Error, message, RULE);
        }
        let mut units = Vec::new();
        for name in names {
            let Some(id) = self.unit(r, Some(name)) else { return };
            units.push(id);
        }
        if let Some(u) = units.first().and_then(|&id| self.state.unit(id))
            && self.state.sides.get(u.side.0).is_none_or(|s| *s.name != *r.side)
        {
            let message =
                format!("{} is not of the active side: a wave is authorised in its own Phase 1", u.name);
            return r.here(Level::Error, message, RULE);
        }
        let Some(order) = self.rules.data.order(WAVE_ORDER).cloned() else {
            let message = format!("no order `{WAVE_ORDER}` in the rule data: the Wave Attack has no price");
            return r.here(Level::Error, message, RULE);
        };
        let gap = order.adjacent_within.unwrap_or(1.0);
        for pair in units.windows(2) {
            if let Some(why) = self.not_stacked(pair[0], pair[1], gap) {
                let message = format!(
                    "{} is not stacked straight behind {}: {why}",
                    self.name(pair[1]),
                    self.name(pair[0])
                );
                return r.here(Level::Error, message, RULE);
            }
        }
        let cost = match self.order_price(&order, units.first().copied()) {
            Ok(cost) => cost,
            Err((message, rule)) => return r.here(Level::Error, message, rule),
        };
        // The engine's checks first, on a copy: a refused wave costs no pips.
        let mut events = Vec::new();
        let mut trial = self.state.clone();
        if let Err(e) = wave::authorise(&self.rules, &mut trial, b, &units, &mut events) {
            return r.refused(&e, RULE);
        }
        if !self.pay_pips(r, b, cost, order.meta.title(), RULE) {
            return;
        }
        self.state.waves.clone_from(&trial.waves);
        r.emit(events);
        if let Some(claim) = &action.claim {
            claims::check_number(r, claim, f64::from(cost), "pips spent", RULE);
        }
    }

    /// `assault "Support" -> "Target" surge`: the charge a wave's regiment ahead did not finish,
    /// or None (and a finding) when there is none to complete.
    pub(super) fn surge(&self, r: &mut Replayer<'_>, support: UnitId, target: UnitId) -> Option<wave::Surge> {
        let found = wave::surge_at(&self.state, support, target);
        if found.is_none() {
            let message = format!(
                "{} has no stalled charge of its wave to complete at {}: a surge follows the regiment \
                 ahead's charge at that target, when it ends short",
                self.name(support),
                self.name(target)
            );
            r.here(Level::Error, message, RULE);
        }
        found
    }

    /// Ch13 23.0 "The Artillery Magnet": after `firer`'s volley scored `hits` on `target` at
    /// `range`, a battery's solid shot or shell (any band but canister) puts as many stray hits on
    /// the regiment of `target`'s wave stacked straight behind it.
    pub(super) fn magnet(
        &mut self,
        r: &mut Replayer<'_>,
        firer: UnitId,
        target: UnitId,
        range: f64,
        hits: u32,
    ) {
        if hits == 0 || self.state.waves.is_empty() || !self.rules.module(wave::WAVE_ATTACK) {
            return;
        }
        let Some(f) = self.state.unit(firer).filter(|f| f.is_battery()) else { return };
        let band =
            self.rules.data.weapon(&f.weapon).and_then(|w| {
                battlefield::range::band(w, crate::engine::fire::plan::weapon_arm(&f.arm), range)
            });
        if band.is_none_or(|b| b.name == dotc_lang::library::BandName::Canister) {
            return;
        }
        let Some(back) = wave::behind(&self.state, target) else { return };
        let gap = self.rules.data.order(WAVE_ORDER).and_then(|o| o.adjacent_within).unwrap_or(1.0);
        if self.state.unit(back).is_none_or(|u| u.removed) || self.not_stacked(target, back, gap).is_some() {
            return;
        }
        let mut events = Vec::new();
        match wave::stray_hits(&self.rules, &mut self.state, back, hits, &mut events) {
            Ok(_) => r.emit(events),
            Err(e) => r.refused(&e, RULE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::maneuver::tests::{errors, errors_at, play};

    /// The module suite's table (tests/rules/modules/wave_attack.dotc, the module on in its
    /// `rules` block): W2 0.5" straight behind W1 (W1's rear edge on y = 9.25, W2's front on
    /// 8.75), W4 behind W3, C1 6" in front of W1.
    fn table() -> String {
        include_str!("../../../tests/rules/modules/wave_attack.dotc").to_string()
    }

    const PIPS: &str = "        pips \"Col. Upton\" roll [5]\n        pips \"Col. Russell\" roll [5]\n        pips \"Col. Doles\" roll [1]\n";

    fn union(command: &str, maneuver: &str) -> String {
        format!(
            "turn 1 union {{\n    command {{\n{PIPS}{command}    }}\n    maneuver {{\n{maneuver}    }}\n}}\n"
        )
    }

    /// Ch13 23.0, dotc D26: a wave is stacked straight behind within 1"; W3 is beside W1, not
    /// behind it, and W2 moved to 1.5" behind W1's rear edge is too far. Refused, it costs no
    /// pip.
    #[test]
    fn ch13_23_0_a_wave_must_be_stacked_within_1_inch() {
        let (replay, game) = play(&table(), &union("        wave \"Col. Upton\" \"W1\" \"W3\"\n", ""));
        let apart = errors_at(&replay, &game, "wave");
        assert!(apart.iter().any(|f| f.message.contains("not stacked straight behind")), "{apart:#?}");
        let far = table().replace("line at (20, 8.75) facing north", "line at (20, 7.75) facing north");
        let (replay, game) = play(&far, &union("        wave \"Col. Upton\" \"W1\" \"W2\"\n", ""));
        let gap = errors_at(&replay, &game, "wave");
        assert!(gap.iter().any(|f| f.message.contains("1.5\" behind")), "{gap:#?}");
        let spent = replay.summary.brigades.iter().find(|b| b.name == "Upton").map(|b| b.pips);
        assert_eq!(spent, Some(4), "a refused wave costs no pip");
    }

    /// Ch13 23.0, dotc D26: W2 may surge only after W1's charge at C1 ended short; a charge that
    /// went home leaves nothing to complete.
    #[test]
    fn ch13_23_0_a_surge_needs_the_lead_s_charge_to_end_short() {
        let wave = "        wave \"Col. Upton\" \"W1\" \"W2\"\n";
        let alone =
            "        assault \"W2\" -> \"C1\" surge {\n            melee roll [4] vs [2]\n        }\n";
        let (replay, game) = play(&table(), &union(wave, alone));
        let none = errors_at(&replay, &game, "assault \"W2\"");
        assert!(none.iter().any(|f| f.message.contains("no stalled charge")), "{none:#?}");
        let home = "        assault \"W1\" -> \"C1\" pip \"Col. Upton\" {\n            closing_volley roll [1, 1, 2, 2, 3]\n            melee roll [4] vs [2]\n        }\n";
        let (replay, game) = play(&table(), &union(wave, &format!("{home}{alone}")));
        let after = errors_at(&replay, &game, "assault \"W2\"");
        assert!(after.iter().any(|f| f.message.contains("no stalled charge")), "{after:#?}");
        let _ = errors(&replay);
    }
}
