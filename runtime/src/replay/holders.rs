//! Horse holders on the table (Ch16 10.2; module `horse_holders`, Ch13 6.0, dotc D24): the stand
//! that dismounted cavalry leaves behind its line with the horses.
//!
//! Where it stands comes from the scenario (`holders at (x, y)`) or from the `dismount` line, and
//! is kept in the replay's book. What happens to it:
//!
//! - `lead_horses "Unit" to (x, y)` moves it in its side's Phase 2, once, straight, at most the
//!   stdlib's `maneuver horse_holders_move` (4"); with the module, at most
//!   `maneuver horse_holders_road` (8") when the whole way runs along a road. It may not leave the
//!   table nor cross impassable ground;
//! - with the module, each stand must end its side's Phase 2 within that entry's `within` (4") of
//!   its regiment's line; one farther off is an error at the phase;
//! - with the module, `fire "Unit" at "Regiment" holders` (in `fire/targets.rs`) is a volley at
//!   them: no save, and two hits take them as a charge does (the engine's
//!   `fire::solitary::volley_at_holders`);
//! - `assault "Charger" -> "Unit" holders [=> captured]` is a charge at the holders. It is
//!   declared and paid as any charge (Ch16 7.1), in the charger's front arc and within its charge
//!   reach of the holders' stand; the holders neither shoot nor fight, so it has no step and no
//!   die: they are captured (the engine's [`capture_horse_holders`]), their stand is lost and the
//!   regiment can never remount. The charger closes straight ahead into contact, as any charge.
//!
//! Judgements: a move of the holders is no part of the regiment's written order (Ch13 8.0); a
//! charge at them needs no Discipline check to close, as nothing of theirs can stop it.

use geo::{Distance, Euclidean};

use super::*;
use crate::battlefield::arcs;
use crate::battlefield::movement::POSITION_TOLERANCE;
use crate::engine::assault::{AssaultInput, charge_horse_holders};
use crate::engine::melee::MeleeInput;

/// The module of Ch13 6.0.
pub(super) const MODULE: &str = dotc_lang::rulings::Module::HorseHolders.name();

impl Game {
    /// One stand of a regiment standing apart at `at` (its horse holders, its skirmish screen):
    /// as wide as the regiment's stands, facing the way the regiment faces.
    pub(super) fn lone_stand(line: &Body, at: (f64, f64)) -> Body {
        Body::new(at, line.facing, Layout::new(1, None, 0.0, line.layout.stand_width))
    }

    /// `lead_horses "Unit" to (x, y)` (Ch16 10.2; Ch13 6.0 by road).
    pub(super) fn lead_horses(&mut self, r: &mut Replayer<'_>, action: &Action) {
        const RULE: &str = "Ch16 10.2";
        let Some(id) = self.unit(r, unit_arg(action)) else { return };
        let Some(u) = self.state.unit(id) else { return };
        let name = u.name.clone();
        match u.arm {
            Arm::Cavalry { mounted: false, horse_holders: 1.., .. } => {}
            Arm::Cavalry { mounted: false, .. } => {
                let message = format!("{name} has lost its horse holders: there are no horses to lead");
                return r.here(Level::Error, message, RULE);
            }
            _ => {
                let message = format!("{name} is not dismounted cavalry: it has no horse holders to lead");
                return r.here(Level::Error, message, RULE);
            }
        }
        if !self.may_maneuver(r, id) {
            return;
        }
        let Some(&from) = self.book.holders.get(&name) else {
            let message = format!(
                "where {name}'s horse holders stand is not known: give them `holders at (x, y)` in the \
                 scenario, or dismount the regiment in the log"
            );
            return r.here(Level::Error, message, RULE);
        };
        let Some(to) = super::maneuver::to_arg(action) else {
            let message = format!("say where the horses go: `lead_horses \"{name}\" to (x, y)`");
            return r.here(Level::Error, message, RULE);
        };
        if !self.book.turn(r.turn).holders_led.insert(id) {
            let message = format!("{name}'s horse holders have moved once this phase already");
            return r.here(Level::Error, message, RULE);
        }
        let length = crate::geometry::measured((to.0 - from.0).hypot(to.1 - from.1));
        let module = self.rules.module(MODULE);
        let road = module && battlefield::movement::straight_on_road(&self.bf, from, to);
        let (most, rule) = if road {
            (self.rules.tables.holders_road, "Ch13 6.0")
        } else {
            (self.rules.tables.holders_move, RULE)
        };
        if length > most + POSITION_TOLERANCE {
            let how = if road { " along the road" } else { "" };
            let road_note =
                if module && !road { " (8\" only when the whole way runs along a road)" } else { "" };
            let message = format!(
                "{name}'s horse holders lead the horses at most {most}\"{how}, not {length:.1}\"{road_note}"
            );
            return r.here(Level::Error, message, rule);
        }
        if let Some(fault) = self.holders_path_fault(from, to) {
            return r.here(Level::Error, format!("{name}'s horse holders may not go so: {fault}"), RULE);
        }
        self.book.holders.insert(name.clone(), to);
        let text = format!("{name}'s horse holders lead the horses {length:.1}\"");
        r.emit([Event::new(What::Note { text }, rule)]);
    }

    /// Why the holders may not go straight from `from` to `to`, if they may not: off the table,
    /// or across impassable ground.
    fn holders_path_fault(&self, from: (f64, f64), to: (f64, f64)) -> Option<String> {
        use geo::Intersects;
        if let Some((w, h)) = self.bf.table
            && (!(0.0..=w).contains(&to.0) || !(0.0..=h).contains(&to.1))
        {
            return Some(format!("({}, {}) is off the {w} x {h} table", to.0, to.1));
        }
        let path = geo::Line::new(geo::coord! { x: from.0, y: from.1 }, geo::coord! { x: to.0, y: to.1 });
        self.bf
            .areas
            .iter()
            .filter(|a| a.flags.iter().any(|f| f == "impassable"))
            .find(|a| a.outline.intersects(&path))
            .map(|a| {
                let name = a.name.clone().unwrap_or_else(|| a.terrain.meta.title().to_string());
                format!("the way crosses impassable ground ({name})")
            })
    }

    /// Ch13 6.0 (module `horse_holders`): at the end of its side's Phase 2 each stand of horse
    /// holders stands within the stdlib's `within` of its regiment's line; one farther off is an
    /// error at the phase.
    pub(super) fn holders_tether(&mut self, r: &mut Replayer<'_>, phase: Span) {
        const RULE: &str = "Ch13 6.0";
        if r.phase != PhaseKind::Maneuver || !self.rules.module(MODULE) {
            return;
        }
        let most = self.rules.tables.holders_tether;
        let mut far = Vec::new();
        for (name, &at) in &self.book.holders {
            let Some(id) = self.state.unit_named(name) else { continue };
            let Some(u) = self.state.unit(id) else { continue };
            let own = self.state.sides.get(u.side.0).is_some_and(|s| *s.name == *r.side);
            let holding = matches!(u.arm, Arm::Cavalry { mounted: false, horse_holders: 1.., .. });
            let Some(line) = self.bodies.get(&id).filter(|_| own && holding && !u.removed && u.on_table)
            else {
                continue;
            };
            let gap = crate::geometry::measured(
                Euclidean.distance(&line.footprint(), &Self::lone_stand(line, at).footprint()),
            );
            if gap > most + POSITION_TOLERANCE {
                far.push(format!(
                    "{name}'s horse holders end the phase {gap:.1}\" from its line: they must stay within \
                     {most}\" (`lead_horses` them nearer, or move the line back)"
                ));
            }
        }
        for message in far {
            r.find(phase, Level::Error, message, RULE);
        }
    }

    /// `assault "Charger" -> "Unit" holders [=> captured]`: a charge at the horse holders of
    /// dismounted cavalry `parent` (Ch16 10.2, Ch13 6.0, dotc D24).
    pub(super) fn charge_holders(
        &mut self,
        r: &mut Replayer<'_>,
        action: &Action,
        charger: UnitId,
        parent: UnitId,
    ) {
        const RULE: &str = "Ch16 10.2";
        let pname = self.name(parent);
        if let Some(step) = action.steps.first() {
            let message = format!(
                "{pname}'s horse holders neither shoot nor fight: a charge at them has no `{}` step",
                step.verb.value
            );
            return r.find(step.span, Level::Error, message, RULE);
        }
        let Some(&at) = self.book.holders.get(&pname) else {
            let message = format!("{pname} has no horse holders on the table to charge");
            return r.here(Level::Error, message, RULE);
        };
        let (Some(cb), Some(pb)) = (self.bodies.get(&charger).copied(), self.bodies.get(&parent).copied())
        else {
            return r.here(Level::Error, "the charger or its target is not on the table", "Ch16 7.1");
        };
        let cname = self.name(charger);
        let hb = Self::lone_stand(&pb, at);
        // Ch16 7.1, RULINGS G13: the holders must lie in the charger's forward 45-degree arc.
        if !arcs::in_front_arc(&cb, &hb) {
            let message = format!(
                "{pname}'s horse holders are outside {cname}'s 45-degree front arc: they may not be charged"
            );
            return r.here(Level::Error, message, "Ch16 7.1, RULINGS G13");
        }
        let distance = battlefield::range::range(&cb, &hb);
        let input = AssaultInput {
            distance,
            brigadier_distance: self.command_range(charger, &cb),
            coordinated: false,
            closing_volley: None,
            melee: MeleeInput::default(),
        };
        match charge_horse_holders(&self.rules, &mut self.state, charger, parent, &input) {
            Ok(events) => {
                r.emit(events);
                self.book.holders.remove(&pname);
                self.close_in(charger, &cb, distance);
                if let Some(claim) = &action.claim {
                    claims::check_evasion(r, claim, true, "the horse holders", "Ch16 10.2, Ch13 6.0");
                }
            }
            Err(e) => self.assault_refused(r, &e, "Ch16 7.1, 10.2"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::maneuver::tests::{errors, errors_at, play};
    use super::*;

    /// The module suite's table (tests/rules/modules/horse_holders.dotc), with the module on or
    /// off: H1's holders at (20, 17), 2.2" behind its line's rear edge on y = 19.2; H2's at
    /// (44, 10) on the Mill Road (x = 44).
    fn scenario(module: bool) -> String {
        let plain = include_str!("../../../tests/rules/modules/horse_holders.dotc").to_string();
        if module {
            plain.replace(
                "    table 60 x 40\n",
                "    table 60 x 40\n    rules {\n        module horse_holders\n    }\n",
            )
        } else {
            plain
        }
    }

    const PIPS: &str = "        pips \"Col. Gamble\" roll [5]\n        pips \"Col. Archer\" roll [5]\n";

    fn union_turn(maneuver: &str) -> String {
        format!("turn 1 union {{\n    command {{\n{PIPS}    }}\n    maneuver {{\n{maneuver}    }}\n}}\n")
    }

    /// The error findings at the maneuver phase of the log, citing `rule`.
    fn at_phase(replay: &Replay, game: &str, rule: &str) -> Vec<String> {
        let at = game.find("maneuver {").expect("the log has a maneuver phase");
        replay
            .findings
            .iter()
            .filter(|f| f.span.start == at && f.level == Level::Error && f.rule == rule)
            .map(|f| f.message.clone())
            .collect()
    }

    /// Ch16 10.2: the holders lead the horses at most 4" off the road, once a phase; 4.3" is
    /// too far with the module on or off.
    #[test]
    fn ch16_10_2_the_holders_move_4_inches_once_a_turn() {
        for module in [false, true] {
            let (replay, game) =
                play(&scenario(module), &union_turn("        lead_horses \"H1\" to (20, 13.5)\n"));
            let near = errors_at(&replay, &game, "lead_horses");
            assert!(near.is_empty(), "3.5\" is within 4\": {near:#?}");
            let (replay, game2) =
                play(&scenario(module), &union_turn("        lead_horses \"H1\" to (16.5, 14.8)\n"));
            // hypot(3.5, 2.2) = 4.13" > 4".
            let far = errors_at(&replay, &game2, "lead_horses");
            assert!(
                far.iter().any(|f| f.rule == "Ch16 10.2" && f.message.contains("at most 4\"")),
                "{far:#?}"
            );
            let twice = "        lead_horses \"H1\" to (20, 16)\n        lead_horses \"H1\" to (20, 15)\n";
            let (replay, game3) = play(&scenario(module), &union_turn(twice));
            let second = game3.find("lead_horses \"H1\" to (20, 15)").expect("the second move");
            let again: Vec<_> = replay
                .findings
                .iter()
                .filter(|f| f.span.start == second && f.level == Level::Error)
                .collect();
            assert!(again.iter().any(|f| f.message.contains("once this phase")), "{again:#?}");
        }
    }

    /// Ch13 6.0: along the Mill Road the module lets the holders go 8": H2's from (44, 10) to
    /// (44, 17) is 7", legal with the module and over the 4" without it; off the road 7" is too
    /// far either way.
    #[test]
    fn ch13_6_0_the_holders_go_8_inches_along_a_road_with_the_module() {
        let road = union_turn("        lead_horses \"H2\" to (44, 17)\n");
        let (with, _) = play(&scenario(true), &road);
        assert!(errors(&with).is_empty(), "{:#?}", errors(&with));
        let (without, game) = play(&scenario(false), &road);
        let far = errors_at(&without, &game, "lead_horses");
        assert!(far.iter().any(|f| f.rule == "Ch16 10.2" && f.message.contains("at most 4\"")), "{far:#?}");
        // Off the road: (44, 10) to (39, 15) is hypot(5, 5) = 7.07", over 4" even with the module.
        let (off, game) = play(&scenario(true), &union_turn("        lead_horses \"H2\" to (39, 15)\n"));
        let far = errors_at(&off, &game, "lead_horses");
        assert!(
            far.iter().any(|f| f.message.contains("only when the whole way runs along a road")),
            "{far:#?}"
        );
    }

    /// Ch13 6.0: with the module the holders end their side's Phase 2 within 4" of their line.
    /// H1's holders led from (20, 17) to (20, 14.9) stand 19.2 - 14.9 = 4.3" from its rear edge:
    /// an error at the phase with the module, nothing without it. H2's, left 9.2" behind at
    /// (44, 10), are too far as well unless they catch up.
    #[test]
    fn ch13_6_0_the_holders_stay_within_4_inches_of_their_line() {
        let moves = "        lead_horses \"H1\" to (20, 14.9)\n        lead_horses \"H2\" to (44, 17)\n";
        let (replay, game) = play(&scenario(true), &union_turn(moves));
        let far = at_phase(&replay, &game, "Ch13 6.0");
        assert_eq!(far.len(), 1, "{far:#?}");
        assert!(far[0].starts_with("H1's horse holders end the phase 4.3\" from its line"), "{far:#?}");
        let (replay, _) = play(&scenario(false), &union_turn("        lead_horses \"H1\" to (20, 14.9)\n"));
        assert!(errors(&replay).is_empty(), "{:#?}", errors(&replay));
    }

    /// Ch16 10.2, dotc D24: a charge at the holders captures them; it has no step, and the
    /// holders must lie in the charger's front arc within its reach.
    #[test]
    fn ch16_10_2_a_charge_at_the_holders_has_no_step_and_needs_the_arc() {
        let turn2 = |assault: &str| {
            format!(
                "turn 1 union {{\n    command {{\n{PIPS}    }}\n}}\nturn 2 confederate {{\n    command {{\n{PIPS}    }}\n    maneuver {{\n        {assault}\n    }}\n}}\n"
            )
        };
        let (replay, _) = play(
            &scenario(false),
            &turn2("assault \"C1\" -> \"H1\" holders pip \"Col. Archer\" => captured"),
        );
        assert!(errors(&replay).is_empty(), "{:#?}", errors(&replay));
        let h1 = replay.summary.units.iter().find(|u| u.name == "H1").expect("H1");
        assert_eq!(h1.stands, 3);
        let (replay, game) = play(
            &scenario(false),
            &turn2(
                "assault \"C1\" -> \"H1\" holders pip \"Col. Archer\" {\n            melee roll [4] vs [2]\n        }",
            ),
        );
        let step = game.find("melee roll").expect("the step");
        assert!(
            replay
                .findings
                .iter()
                .any(|f| f.span.start == step && f.message.contains("neither shoot nor fight")),
            "{:#?}",
            replay.findings
        );
        // H2's holders at (44, 10) are far off C1's front arc (C1 at x = 20, facing north).
        let (replay, game) =
            play(&scenario(false), &turn2("assault \"C1\" -> \"H2\" holders pip \"Col. Archer\""));
        let out = errors_at(&replay, &game, "assault");
        assert!(out.iter().any(|f| f.rule == "Ch16 7.1, RULINGS G13"), "{out:#?}");
        // A claim that they got away is wrong.
        let (replay, _) =
            play(&scenario(false), &turn2("assault \"C1\" -> \"H1\" holders pip \"Col. Archer\" => evaded"));
        assert!(
            replay.findings.iter().any(|f| f.message.contains("the horse holders")),
            "{:#?}",
            replay.findings
        );
    }
}
