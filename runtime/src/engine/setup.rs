//! The state a scenario starts with: its order of battle as the engine sees it.
//!
//! [`Setup::from_scenario`] reads a scenario's sides, commanders, brigades, brigadiers and units
//! with the rule data in force, and [`rules_for`] the rulings and modules its `rules` blocks set.
//! Positions stay with the battlefield (the table geometry); here a unit without one is simply
//! not on the table yet (a reinforcement). Everything the language checks already report (an
//! unknown weapon, a unit with no strength) is skipped here, never guessed: such a unit is left
//! out and named in [`Setup::skipped`].

use std::collections::BTreeSet;

use dotc_lang::ast::{self, UnitKind};
use dotc_lang::check::men_to_stands;
use dotc_lang::library::RuleData;

use super::state::{Arm, BrigadeId, GameState, LeaderRank, SideId, Unit, UnitId};
use super::{EngineError, Rules};
use crate::rulings::Rulings;

/// A scenario's starting state, and what could not be set up.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub state: GameState,
    /// Units left out, with the reason (the language checks report each one).
    pub skipped: Vec<(String, String)>,
}

/// The rules a scenario plays by: its rule data, the rulings its `rules` blocks set (defaults,
/// presets, `ruling` lines) and its modules.
/// The stands a scenario says a unit lost before the table (its `lost`, Ch16 8.1, RULE-07-2.2):
/// a whole number from 0 to 1,000, else none (the language checks report it).
pub fn lost_before(unit: &ast::Unit) -> u32 {
    let lost = unit.lost.as_ref().map_or(0.0, |l| l.value);
    if lost.fract() == 0.0 && (0.0..=1000.0).contains(&lost) { lost as u32 } else { 0 }
}

pub fn rules_for(scenario: &ast::Scenario, data: &RuleData) -> Result<Rules, EngineError> {
    let settings = dotc_lang::model::effective_rulings(scenario.rules.iter());
    let rulings =
        Rulings::from_settings(&settings).map_err(|_| EngineError::MissingRuleData("valid rulings"))?;
    let modules: BTreeSet<String> =
        scenario.rules.iter().flat_map(|b| b.modules.iter().map(|m| m.value.clone())).collect();
    Rules::new(data.clone(), rulings, modules)
}

impl Setup {
    /// Turn 1's state of `scenario`. `rules` decides the modules that place markers at setup
    /// (Clean Barrels, Ch13 2.0).
    pub fn from_scenario(scenario: &ast::Scenario, rules: &Rules) -> Setup {
        let mut setup = Setup { state: GameState::default(), skipped: Vec::new() };
        setup.state.turn = 1;
        let men_per_stand = scenario.men_per_stand.as_ref().map(|m| m.value);
        for side in &scenario.sides {
            let side_id = setup.state.add_side(&side.id.value);
            for c in &side.commanders {
                let rating = c.rating.as_ref().map_or("reliable", |r| r.value.as_str());
                setup.state.add_leader(&c.name.value, side_id, LeaderRank::Commander, rating, None);
            }
            for brigade in &side.brigades {
                let b = setup.state.add_brigade(&brigade.name.value, side_id);
                for unit in &brigade.units {
                    setup.add_unit(unit, side_id, Some(b), men_per_stand, rules);
                }
                // RULE-07-2.2, RULINGS G5: stands lost before the scenario, the brigade's own
                // `losses` beyond its units' `lost`, are on its tally from the start.
                let earlier = brigade.losses.as_ref().map_or(0.0, |l| l.value);
                if earlier.fract() == 0.0 && (0.0..=1000.0).contains(&earlier) {
                    if let Some(br) = setup.state.brigades.get_mut(b.0) {
                        br.starting_stands += earlier as u32;
                        br.losses += earlier as u32;
                    }
                }
                for (i, brigadier) in brigade.brigadiers.iter().enumerate() {
                    let rating = brigadier.rating.as_ref().map_or("reliable", |r| r.value.as_str());
                    // The first brigadier commands the brigade; any other is a spare leader.
                    let commands = (i == 0).then_some(b);
                    let l = setup.state.add_leader(
                        &brigadier.name.value,
                        side_id,
                        LeaderRank::Brigadier,
                        rating,
                        commands,
                    );
                    let unit = brigadier.attached.as_ref().and_then(|n| setup.state.unit_named(&n.value));
                    if let Some(leader) = setup.state.leaders.get_mut(l.0) {
                        leader.attached = unit;
                        // Ch16 2.4: the colonel who takes over when he falls, by the name the
                        // scenario gives him or the default a log can type.
                        leader.successor = brigadier.replacement_name();
                    }
                    // Ch16 2.4, RULINGS G18: light wounds he already carries, a pip less each.
                    if let Some(w) = brigadier
                        .wounded
                        .as_ref()
                        .filter(|w| w.value.fract() == 0.0 && (1.0..=6.0).contains(&w.value))
                        && let Some(leader) = setup.state.leaders.get_mut(l.0)
                    {
                        leader.pip_penalty = w.value as u32;
                    }
                }
                // The brigade's state from its tally (RULE-07-2.3, 2.4, Ch16 8.2): a brigade that
                // begins past a threshold begins Hesitant or Broken, its units disordered.
                let mut events = Vec::new();
                let _ = super::morale::update_brigade(rules, &mut setup.state, b, &mut events);
            }
            // Ch13 4.0: the blinds deployed instead of the miniatures (the module's absence is the
            // replay's to report); a brigade under one is off the table until its reveal.
            for blind in &side.blinds {
                let hides = match &blind.brigade {
                    Some(b) => match setup.state.brigade_named(&b.value) {
                        Some(id) => super::blinds::Hides::Real(id),
                        None => continue,
                    },
                    None => super::blinds::Hides::Dummy,
                };
                let at = (blind.position.value.x, blind.position.value.y);
                setup.state.blinds.push(super::blinds::Blind::new(&blind.name.value, side_id, at, hides));
            }
            for unit in &side.units {
                setup.add_unit(unit, side_id, None, men_per_stand, rules);
            }
        }
        setup
    }

    fn add_unit(
        &mut self,
        unit: &ast::Unit,
        side: SideId,
        brigade: Option<BrigadeId>,
        men_per_stand: Option<u32>,
        rules: &Rules,
    ) -> Option<UnitId> {
        let data = &rules.data;
        let name = unit.name.value.clone();
        let stands = match (unit.kind, &unit.sections, &unit.stands, &unit.men, men_per_stand) {
            (UnitKind::Battery, Some(s), _, _, _) => Some(s.value),
            (_, _, Some(s), _, _) => Some(s.value),
            (_, _, None, Some(m), Some(per)) if per > 0 => Some(men_to_stands(m.value, per)),
            _ => None,
        };
        // The language checks refuse fractions and absurd sizes; the engine takes whole stands only.
        let Some(stands) =
            stands.filter(|s| s.fract() == 0.0 && (1.0..=1000.0).contains(s)).map(|s| s as u32)
        else {
            self.skipped.push((name, "no readable strength (stands, men or sections)".into()));
            return None;
        };
        let word =
            |pred: &dyn Fn(&str) -> bool| unit.words.iter().map(|w| w.value.as_str()).find(|w| pred(w));
        let quality = word(&|w| data.quality(w).is_some());
        let weapon = word(&|w| data.weapon(w).is_some());
        let flag = |f: &str| unit.words.iter().any(|w| w.value == f);
        let (Some(quality), Some(weapon)) = (quality, weapon) else {
            self.skipped.push((name, "no known quality or weapon".into()));
            return None;
        };
        let arm = match unit.kind {
            UnitKind::Regiment => Arm::Infantry,
            UnitKind::Battery => Arm::Battery { limbered: flag("limbered") },
            UnitKind::Cavalry => {
                let mounted = !flag("dismounted");
                // Ch16 10.2, RULINGS G15: one stand in four holds the horses (ceil(N/4)).
                let horse_holders = if mounted { 0 } else { stands.div_ceil(4) };
                Arm::Cavalry { mounted, horse_holders, can_remount: true }
            }
        };
        let default_formation = match arm {
            Arm::Cavalry { mounted: false, .. } => "skirmish",
            _ => "line",
        };
        let formation = word(&|w| data.formation(w).is_some()).unwrap_or(default_formation);
        let mut u = Unit::new(&name, side, arm, stands, quality, weapon, formation);
        // Ch16 8.1, RULE-07-2.2: stands lost before the scenario count for its health and its
        // brigade's tally.
        let lost = lost_before(unit);
        u.starting_stands = stands + lost;
        if let Some(q) = data.quality(quality) {
            u.traits.extend(q.traits.iter().cloned());
        }
        // A trait the scenario assigns counts only with its module on (Ch13 5.0, dotc D8); the
        // check warns of one that does not (`dotc::module-off`).
        for t in unit.traits.iter().filter(|t| rules.trait_in_force(&t.value)) {
            if !u.traits.contains(&t.value) {
                u.traits.push(t.value.clone());
            }
        }
        for m in &unit.markers {
            match m.value.as_str() {
                "disorder" => u.markers.disorder = true,
                "gunsmoke" => u.markers.gunsmoke = true,
                "low_ammo" => u.markers.low_ammo = true,
                "fouled" => u.markers.fouled = true,
                "clean_barrels" => u.markers.clean_barrels = true,
                "micro_hit" => u.micro_hit = 1,
                _ => {}
            }
        }
        // Ch13 2.0: with the module on, every infantry regiment starts with Clean Barrels.
        let applies = rules.tables.clean_barrels.applies_to.contains(&dotc_lang::library::Arm::Infantry);
        if rules.module("clean_barrels") && u.is_infantry() && applies {
            u.markers.clean_barrels = true;
        }
        if unit.screen.is_some() {
            u.screen = Some(super::state::Screen::default());
        }
        u.on_table = unit.position.is_some();
        // A battery's sections are not on the clock (RULINGS G5).
        let clock_lost = if u.is_battery() { 0 } else { lost };
        let id = self.state.add_unit(u, brigade);
        if let Some(b) = brigade.and_then(|b| self.state.brigades.get_mut(b.0)) {
            b.starting_stands += clock_lost;
            b.losses += clock_lost;
        }
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::events::BrigadeStatus;

    const TUTORIAL: &str = include_str!("../../../scenarios/tutorial/fence-line.dotc");

    fn tutorial() -> (Rules, Setup) {
        let parsed = dotc_lang::parse(TUTORIAL);
        let scenario = parsed.document.scenario.expect("the tutorial is a scenario");
        let mut data = dotc_lang::stdlib().clone();
        let extra = dotc_lang::library::RuleData::from_libraries(scenario.libraries.iter(), &mut Vec::new());
        data.extend(extra);
        let rules = rules_for(&scenario, &data).unwrap();
        let setup = Setup::from_scenario(&scenario, &rules);
        (rules, setup)
    }

    /// A scenario that begins mid-battle (issue 14's language gap): the 19th Maine has lost 2 of
    /// its 7 stands (Ch16 8.1: 5 of 7 is 71%, Worn), the brigade lost 3 more stands with
    /// regiments no longer on the table, so its tally is 2 + 3 = 5 of 10 + 2 + 3 = 15 starting
    /// stands: Hesitant at round-half-up(4.5) = 5, Broken at ceil(7.5) = 8 (RULINGS G6); and
    /// Hollister carries a light wound (Ch16 2.4, RULINGS G18). With `losses 8` the tally is 10
    /// of 20: Broken at 10 (RULE-07-2.4), every unit of the brigade disordered.
    #[test]
    fn rule_07_2_2_a_scenario_may_begin_with_losses_a_tally_and_a_wounded_brigadier() {
        let start = |losses: u32| {
            let text = TUTORIAL
                .replace(
                    "regiment \"19th Maine\" { stands 5 veteran",
                    "regiment \"19th Maine\" { lost 2 stands 5 veteran",
                )
                .replace(
                    "brigadier \"Col. Asa Hollister\" reliable at (16, 9.5)",
                    &format!("brigadier \"Col. Asa Hollister\" reliable at (16, 9.5) wounded 1\n            losses {losses}"),
                );
            let parsed = dotc_lang::parse(&text);
            assert!(parsed.diagnostics.is_empty(), "{:#?}", parsed.diagnostics);
            let scenario = parsed.document.scenario.expect("a scenario");
            let rules = rules_for(&scenario, dotc_lang::stdlib()).unwrap();
            Setup::from_scenario(&scenario, &rules)
        };
        let setup = start(3);
        let s = &setup.state;
        let maine = &s.units[s.unit_named("19th Maine").unwrap().0];
        assert_eq!((maine.stands, maine.starting_stands), (5, 7));
        let b = &s.brigades[s.brigade_named("Hollister’s Brigade").unwrap().0];
        assert_eq!((b.starting_stands, b.losses, b.status), (15, 5, BrigadeStatus::Hesitant));
        assert_eq!(s.leaders[b.brigadier.unwrap().0].pip_penalty, 1);
        let setup = start(8);
        let s = &setup.state;
        let b = &s.brigades[s.brigade_named("Hollister’s Brigade").unwrap().0];
        assert_eq!((b.starting_stands, b.losses, b.status), (20, 10, BrigadeStatus::Broken));
        assert!(
            s.units
                .iter()
                .filter(|u| u.brigade == s.brigade_named("Hollister’s Brigade"))
                .all(|u| u.markers.disorder)
        );
    }

    /// The tutorial's order of battle, as the engine sees it (RULE-07-2.2, Ch16 10.2, RULINGS G5,
    /// G15, C28, Ch13 2.0).
    #[test]
    fn the_tutorial_order_of_battle() {
        let (rules, setup) = tutorial();
        let s = &setup.state;
        assert!(setup.skipped.is_empty(), "{:?}", setup.skipped);
        assert_eq!(s.sides.len(), 2);
        assert_eq!(s.units.len(), 12);
        assert!(rules.module("clean_barrels") && rules.module("low_ammo"));
        let unit = |n: &str| &s.units[s.unit_named(n).unwrap().0];
        // 340 men at 75 a stand: 5 stands.
        assert_eq!(unit("12th New Jersey").stands, 5);
        // Hollister's clock counts its two regiments, not the battery (G5): 5 + 5.
        let hollister = &s.brigades[s.brigade_named("Hollister’s Brigade").unwrap().0];
        assert_eq!((hollister.starting_stands, hollister.status), (10, BrigadeStatus::Fresh));
        assert_eq!(s.leaders[hollister.brigadier.unwrap().0].name, "Col. Asa Hollister");
        // Green units have Seen the Elephant without being given it (C28).
        assert!(unit("51st Georgia").has_trait("seen_the_elephant"));
        // Dismounted cavalry: one stand in four holds the horses (Ch16 10.2).
        assert_eq!(
            unit("7th Virginia Cavalry").arm,
            Arm::Cavalry { mounted: false, horse_holders: 1, can_remount: true }
        );
        assert_eq!(unit("7th Virginia Cavalry").clock_stands(), 3);
        assert!(unit("1st Vermont Cavalry").markers.low_ammo);
        assert!(!unit("1st Vermont Cavalry").on_table, "a reinforcement");
        assert_eq!(unit("Hart’s Georgia Battery").arm, Arm::Battery { limbered: true });
        // Clean Barrels on every infantry regiment, none on the guns (Ch13 2.0).
        assert!(unit("19th Maine").markers.clean_barrels);
        assert!(!unit("Battery K, 4th U.S.").markers.clean_barrels);
        assert!(
            unit("6th Louisiana").has_trait("iron_discipline")
                && unit("6th Louisiana").has_trait("rebel_yell")
        );
    }
}
