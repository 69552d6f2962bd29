//! Step 3 of the post-battle sequence, regimental experience (Ch14 3.0): the feats of every
//! regiment and cavalry battalion of a played battle, found in one place from the finished
//! replay's events, the XP they earn and the grade a total of XP gives.
//!
//! The feats (dotc D35), read from what the engine recorded:
//! - `charged`: a [`What::Contact`] whose defender was a formed unit (the engine says so at
//!   contact), followed in the same charge by the defender losing the melee ([`What::Melee`] an
//!   attacker's win) or leaving the table (routed or overrun on contact); under
//!   `xp_charge_breaks = removed` only the defender leaving the table counts.
//! - `held`: a [`What::Contact`] on the unit while it was Worn or Spent (the engine's health at
//!   contact) after which, in that charge, it neither retreated, fell back nor left the table;
//!   two such charges in the battle (or, under `xp_held_attacks = turn`, in one turn).
//! - `inflicted`: the stands of enemy batteries and enemy Elite units (the quality the battle's
//!   scenario gives them) that the engine's [`What::StandsLost`] says the unit took, by its
//!   volleys or its melees; two or more.
//!
//! Each feat earns `per_feat` XP once a battle (or each time it is done, `xp_repeat_feat = each`,
//! dotc D36), at most `per_battle` in a battle and never past `max_xp` (stdlib
//! `experience track`). The grade is the quality of the tier the XP reaches (dotc D37).

use std::collections::BTreeMap;

use dotc_lang::library::{Experience, RuleData};
use serde::Serialize;

use crate::engine::events::{Health, MeleeOutcome, What};
use crate::replay::ReplayEvent;

/// The experience track as the rule data states it (`experience track`, Ch14 3.0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Track {
    pub per_feat: u32,
    pub per_battle: u32,
    pub max_xp: u32,
    /// Enemy charges held while Worn or Spent that make the holding feat (dotc D35).
    pub held_attacks: u32,
    /// Stands of enemy guns or Elite units taken that make the third feat (dotc D35).
    pub inflicted_stands: u32,
    /// The tiers: (quality, from XP), lowest first.
    pub grades: Vec<(String, u32)>,
    /// The traits a unit may choose one of, from a grade on: (quality, traits).
    pub choose: Vec<(String, Vec<String>)>,
    /// The traits a unit has from a grade on.
    pub gains: Vec<(String, Vec<String>)>,
}

impl Track {
    /// The track from the rule data; an error names what is missing.
    pub fn from_rule_data(data: &RuleData) -> Result<Track, String> {
        let entry: &Experience =
            data.experience("track").ok_or("the rule data has no `experience track` (Ch14 3.0)")?;
        let need =
            |v: Option<u32>, key: &str| v.ok_or(format!("`experience track` has no `{key}` (Ch14 3.0)"));
        let mut grades: Vec<(String, u32)> =
            entry.grades.iter().map(|g| (g.quality.clone(), g.from_xp)).collect();
        if grades.is_empty() {
            return Err("`experience track` has no `grade` (Ch14 3.0)".to_string());
        }
        grades.sort_by_key(|(_, xp)| *xp);
        let pairs = |v: &[dotc_lang::library::GradeTraits]| {
            v.iter().map(|g| (g.quality.clone(), g.traits.clone())).collect::<Vec<_>>()
        };
        Ok(Track {
            per_feat: need(entry.per_feat, "per_feat")?,
            per_battle: need(entry.per_battle, "per_battle")?,
            max_xp: need(entry.max_xp, "max_xp")?,
            held_attacks: need(entry.held_attacks, "held_attacks")?.max(1),
            inflicted_stands: need(entry.inflicted_stands, "inflicted_stands")?.max(1),
            grades,
            choose: pairs(&entry.choose),
            gains: pairs(&entry.gains),
        })
    }

    /// The grade (a quality id) a total of XP gives: the highest tier it reaches (Ch14 3.0;
    /// RULINGS G20: 3 XP is Veteran).
    pub fn grade(&self, xp: u32) -> Option<&str> {
        self.grades.iter().rev().find(|(_, from)| xp >= *from).map(|(q, _)| q.as_str())
    }

    /// The quality of Ch14 3.0's "elite regiments" (dotc D35): the top tier's, Crack/Elite.
    pub fn elite(&self) -> &str {
        self.grades.last().map_or("", |(q, _)| q.as_str())
    }

    /// The XP from which a quality is a unit's grade: what a unit of that quality joins the
    /// campaign with (dotc D37).
    pub fn xp_of(&self, quality: &str) -> Option<u32> {
        self.grades.iter().find(|(q, _)| q == quality).map(|(_, xp)| *xp)
    }

    /// The XP a unit has after a battle: `before` plus what its feats earn, at most
    /// `per_battle` more and never past `max_xp` (Ch14 3.0).
    pub fn after_battle(&self, before: u32, feats: u32) -> u32 {
        let gained = feats.saturating_mul(self.per_feat).min(self.per_battle);
        before.saturating_add(gained).min(self.max_xp.max(before))
    }

    /// The traits a unit of this XP has from its grades (`gains`, Ch14 3.0: Iron Discipline at
    /// Crack/Elite).
    pub fn gained(&self, xp: u32) -> Vec<String> {
        self.gains
            .iter()
            .filter(|(q, _)| self.xp_of(q).is_some_and(|from| xp >= from))
            .flat_map(|(_, ts)| ts.iter().cloned())
            .collect()
    }

    /// The traits a unit of this XP may choose one of, and the grade that opens the choice.
    pub fn choosable(&self, xp: u32) -> Vec<(&str, &[String])> {
        self.choose
            .iter()
            .filter(|(q, _)| self.xp_of(q).is_some_and(|from| xp >= from))
            .map(|(q, ts)| (q.as_str(), ts.as_slice()))
            .collect()
    }
}

/// The campaign rulings of the feats (dotc D35, D36).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FeatRulings {
    /// `xp_charge_breaks = removed`: only a defender that leaves the table was broken.
    pub breaks_only_when_removed: bool,
    /// `xp_held_attacks = turn`: the two held charges come in one turn.
    pub held_within_a_turn: bool,
    /// `xp_repeat_feat = each`: a feat done twice earns twice.
    pub each_time: bool,
}

/// What the campaign knows of a unit of the battle from its scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitFacts {
    pub side: String,
    /// `regiment`, `battery` or `cavalry`.
    pub kind: String,
    /// Its quality in the battle's scenario.
    pub quality: Option<String>,
}

/// What the replay saw one unit do toward the feats of Ch14 3.0.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Seen {
    /// Its charges that came home on an enemy formed unit and broke it (dotc D35).
    pub charges_that_broke: u32,
    /// The turns of the enemy charges it held while Worn or Spent, one entry a charge.
    pub held_turns: Vec<u32>,
    /// Stands it took from enemy batteries and Elite units.
    pub stands_of_guns_or_elite: u32,
}

impl Seen {
    /// How many times it did each feat, `[charged, held, inflicted]`: each counted once a battle
    /// (`xp_repeat_feat = once`) or each time (`each`, dotc D36).
    pub fn feats(&self, track: &Track, rulings: FeatRulings) -> [u32; 3] {
        let charged = self.charges_that_broke;
        let held = if rulings.held_within_a_turn {
            let mut by_turn: BTreeMap<u32, u32> = BTreeMap::new();
            for t in &self.held_turns {
                *by_turn.entry(*t).or_default() += 1;
            }
            by_turn.values().map(|n| n / track.held_attacks).sum::<u32>()
        } else {
            self.held_turns.len() as u32 / track.held_attacks
        };
        let inflicted = self.stands_of_guns_or_elite / track.inflicted_stands;
        let done = [charged, held, inflicted];
        if rulings.each_time { done } else { done.map(|n| n.min(1)) }
    }

    /// What the replay saw, in words, for a finding.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        match self.charges_that_broke {
            0 => parts.push("no charge of it broke an enemy formed unit".to_string()),
            1 => parts.push("1 charge of it broke an enemy formed unit".to_string()),
            n => parts.push(format!("{n} charges of it broke enemy formed units")),
        }
        match self.held_turns.len() {
            0 => parts.push("it held no enemy charge while Worn or Spent".to_string()),
            1 => parts.push("it held 1 enemy charge while Worn or Spent".to_string()),
            n => parts.push(format!("it held {n} enemy charges while Worn or Spent")),
        }
        match self.stands_of_guns_or_elite {
            1 => parts.push("it took 1 stand of enemy guns or Elite units".to_string()),
            n => parts.push(format!("it took {n} stands of enemy guns or Elite units")),
        }
        parts.join(", ")
    }
}

/// A charge that came home, as the events of its melee are read.
struct Charge<'e> {
    attacker: &'e str,
    defender: &'e str,
    turn: u32,
    line: usize,
    defender_health: Option<Health>,
    defender_formed: bool,
    beaten: bool,
    removed: bool,
    gave_ground: bool,
}

/// The feats' facts of every unit of a finished replay (Ch14 3.0, dotc D35). `units` are the
/// battle's units by name; only regiments and cavalry are looked at. `elite` is the quality of
/// Ch14 3.0's "elite regiments": the top tier of the track ([`Track::elite`]).
pub fn seen(
    events: &[ReplayEvent],
    units: &BTreeMap<String, UnitFacts>,
    elite: &str,
    rulings: FeatRulings,
) -> BTreeMap<String, Seen> {
    let mut out: BTreeMap<String, Seen> = BTreeMap::new();
    let mut charge: Option<Charge<'_>> = None;
    let enemies = |a: &str, b: &str| match (units.get(a), units.get(b)) {
        (Some(a), Some(b)) => a.side != b.side,
        _ => false,
    };
    let close = |charge: Option<Charge<'_>>, out: &mut BTreeMap<String, Seen>| {
        let Some(c) = charge else { return };
        if !enemies(c.attacker, c.defender) {
            return;
        }
        let broke = if rulings.breaks_only_when_removed { c.removed } else { c.beaten || c.removed };
        if c.defender_formed && broke {
            out.entry(c.attacker.to_string()).or_default().charges_that_broke += 1;
        }
        let worn = matches!(c.defender_health, Some(Health::Worn | Health::Spent));
        if worn && !c.gave_ground && !c.removed {
            out.entry(c.defender.to_string()).or_default().held_turns.push(c.turn);
        }
    };
    for e in events {
        if charge.as_ref().is_some_and(|c| c.turn != e.turn || c.line != e.line) {
            close(charge.take(), &mut out);
        }
        match &e.event.what {
            What::Contact { attacker, defender, defender_health, defender_formed } => {
                close(charge.take(), &mut out);
                charge = Some(Charge {
                    attacker,
                    defender,
                    turn: e.turn,
                    line: e.line,
                    defender_health: *defender_health,
                    defender_formed: *defender_formed,
                    beaten: false,
                    removed: false,
                    gave_ground: false,
                });
            }
            What::Melee { attacker, defender, outcome, .. } => {
                if let Some(c) = charge.as_mut()
                    && c.attacker == attacker
                    && c.defender == defender
                {
                    c.beaten |= *outcome == MeleeOutcome::AttackerWins;
                }
            }
            What::Removed { unit, .. } => {
                if let Some(c) = charge.as_mut()
                    && c.defender == unit
                {
                    c.removed = true;
                }
            }
            What::Retreat { unit, .. } | What::FallBack { unit, .. } => {
                if let Some(c) = charge.as_mut()
                    && c.defender == unit
                {
                    c.gave_ground = true;
                }
            }
            What::StandsLost { unit, lost, by: Some(by), .. } => {
                let guns_or_elite = units
                    .get(unit)
                    .is_some_and(|u| u.kind == "battery" || u.quality.as_deref() == Some(elite));
                if guns_or_elite && enemies(unit, by) {
                    out.entry(by.clone()).or_default().stands_of_guns_or_elite += lost;
                }
            }
            _ => {}
        }
    }
    close(charge.take(), &mut out);
    // Only regiments and cavalry keep an experience track (Ch14 3.0).
    out.retain(|name, _| units.get(name).is_some_and(|u| u.kind != "battery"));
    out
}

#[cfg(test)]
mod tests {
    //! The feats and the track, hand-worked from Ch14 3.0, RULINGS G20 and dotc D35-D37 on
    //! small replays written event by event.

    use std::sync::Arc;

    use dotc_lang::ast::{PhaseKind, Span};

    use super::*;
    use crate::engine::events::Event;

    fn track() -> Track {
        Track::from_rule_data(dotc_lang::stdlib()).expect("the stdlib has `experience track`")
    }

    /// Two sides: the union's "A" (regiment), "C" (cavalry) and "G" (battery); the
    /// confederates' "R" (regular regiment), "E" (elite regiment), "H" (battery) and "S" (a
    /// second regular regiment).
    fn units() -> BTreeMap<String, UnitFacts> {
        let u = |side: &str, kind: &str, quality: &str| UnitFacts {
            side: side.to_string(),
            kind: kind.to_string(),
            quality: Some(quality.to_string()),
        };
        [
            ("A", u("union", "regiment", "regular")),
            ("C", u("union", "cavalry", "veteran")),
            ("G", u("union", "battery", "regular")),
            ("R", u("confederate", "regiment", "regular")),
            ("E", u("confederate", "regiment", "elite")),
            ("H", u("confederate", "battery", "regular")),
            ("S", u("confederate", "regiment", "regular")),
        ]
        .into_iter()
        .map(|(n, f)| (n.to_string(), f))
        .collect()
    }

    /// A replay written as (turn, line, what) in order.
    fn replay(events: Vec<(u32, usize, What)>) -> Vec<ReplayEvent> {
        events
            .into_iter()
            .map(|(turn, line, what)| ReplayEvent {
                turn,
                side: Arc::from("union"),
                phase: PhaseKind::Maneuver,
                line,
                span: Span::default(),
                event: Event::new(what, "test"),
            })
            .collect()
    }

    fn contact(attacker: &str, defender: &str, health: Health, formed: bool) -> What {
        What::Contact {
            attacker: attacker.into(),
            defender: defender.into(),
            defender_health: Some(health),
            defender_formed: formed,
        }
    }

    fn melee(attacker: &str, defender: &str, outcome: MeleeOutcome) -> What {
        What::Melee { attacker: attacker.into(), defender: defender.into(), outcome, margin: 0 }
    }

    fn lost(unit: &str, n: u32, by: &str) -> What {
        What::StandsLost { unit: unit.into(), lost: n, remaining: 1, by: Some(by.into()) }
    }

    fn retreat(unit: &str) -> What {
        What::Retreat { unit: unit.into(), inches: 6.0 }
    }

    fn seen_of(events: Vec<(u32, usize, What)>, rulings: FeatRulings) -> BTreeMap<String, Seen> {
        seen(&replay(events), &units(), "elite", rulings)
    }

    const ONCE: FeatRulings =
        FeatRulings { breaks_only_when_removed: false, held_within_a_turn: false, each_time: false };

    /// Ch14 3.0 as the stdlib states it: +1 a feat, 2 a battle, 4 in all; green 0, regular 1,
    /// veteran 2, elite 4; a veteran chooses Steady or Sharpshooters; elite gains Iron Discipline.
    #[test]
    fn ch14_3_0_the_stdlib_numbers() {
        let t = track();
        assert_eq!((t.per_feat, t.per_battle, t.max_xp), (1, 2, 4));
        // Ch14 3.0: "two or more" enemy attacks held, "two or more" stands of guns or Elite taken.
        assert_eq!((t.held_attacks, t.inflicted_stands), (2, 2));
        let tiers: Vec<(&str, u32)> = t.grades.iter().map(|(q, x)| (q.as_str(), *x)).collect();
        assert_eq!(tiers, [("green", 0), ("regular", 1), ("veteran", 2), ("elite", 4)]);
        assert_eq!(
            t.choose,
            [("veteran".to_string(), vec!["steady".to_string(), "sharpshooters".to_string()])]
        );
        assert_eq!(t.gains, [("elite".to_string(), vec!["iron_discipline".to_string()])]);
        assert_eq!(t.elite(), "elite");
    }

    /// Ch14 3.0's tier table, RULINGS G20: 0 Green, 1 Regular, 2 and 3 Veteran, 4 Elite; only
    /// a Veteran or better may choose a trait; only Elite has Iron Discipline.
    #[test]
    fn ch14_3_0_the_tier_table() {
        let t = track();
        let grades: Vec<Option<&str>> = (0..=4).map(|xp| t.grade(xp)).collect();
        assert_eq!(grades, [Some("green"), Some("regular"), Some("veteran"), Some("veteran"), Some("elite")]);
        assert!(t.choosable(1).is_empty());
        assert_eq!(t.choosable(2).len(), 1);
        assert_eq!(t.choosable(3).len(), 1);
        assert!(t.gained(3).is_empty());
        assert_eq!(t.gained(4), ["iron_discipline"]);
        // dotc D37: a unit joins with its quality's tier.
        assert_eq!(
            (t.xp_of("green"), t.xp_of("regular"), t.xp_of("veteran"), t.xp_of("elite")),
            (Some(0), Some(1), Some(2), Some(4))
        );
    }

    /// Ch14 3.0: +1 a feat, at most 2 in one battle, never past 4: three feats from 1 XP give
    /// 3 (not 4); one feat at 4 stays 4; two feats at 3 give 4 (not 5).
    #[test]
    fn ch14_3_0_at_most_two_xp_a_battle_and_four_in_all() {
        let t = track();
        assert_eq!(t.after_battle(1, 3), 3);
        assert_eq!(t.after_battle(0, 1), 1);
        assert_eq!(t.after_battle(0, 0), 0);
        assert_eq!(t.after_battle(4, 1), 4);
        assert_eq!(t.after_battle(3, 2), 4);
    }

    /// Ch14 3.0 (a), dotc D35: A charges home on R, a formed line, and wins the melee: R gives
    /// a stand and retreats: one feat. A Bloody Draw, a lost melee, or a win against an unformed
    /// defender (open order) is none.
    #[test]
    fn ch14_3_0_a_charge_that_breaks_a_formed_unit() {
        let won = seen_of(
            vec![
                (1, 10, contact("A", "R", Health::Fresh, true)),
                (1, 10, melee("A", "R", MeleeOutcome::AttackerWins)),
                (1, 10, lost("R", 1, "A")),
                (1, 10, retreat("R")),
            ],
            ONCE,
        );
        assert_eq!(won["A"].charges_that_broke, 1);
        assert_eq!(won["A"].feats(&track(), ONCE), [1, 0, 0]);
        for (outcome, formed) in [
            (MeleeOutcome::BloodyDraw, true),
            (MeleeOutcome::DefenderWins, true),
            (MeleeOutcome::AttackerWins, false),
        ] {
            let s = seen_of(
                vec![(1, 10, contact("A", "R", Health::Fresh, formed)), (1, 10, melee("A", "R", outcome))],
                ONCE,
            );
            assert_eq!(s.get("A").map_or(0, |s| s.charges_that_broke), 0, "{outcome:?}, formed {formed}");
        }
    }

    /// dotc D35: a defender routed on contact (its brigade Broken) is broken without the melee
    /// dice; under `xp_charge_breaks = removed` a beaten defender that stays on the table is
    /// not.
    #[test]
    fn ch14_3_0_broke_by_the_ruling_xp_charge_breaks() {
        let routed = vec![
            (1, 10, contact("A", "R", Health::Fresh, true)),
            (1, 10, lost("R", 5, "A")),
            (1, 10, What::Removed { unit: "R".into(), because: "routed".into() }),
        ];
        let beaten = vec![
            (1, 10, contact("A", "R", Health::Fresh, true)),
            (1, 10, melee("A", "R", MeleeOutcome::AttackerWins)),
            (1, 10, retreat("R")),
        ];
        let removed = FeatRulings { breaks_only_when_removed: true, ..ONCE };
        assert_eq!(seen_of(routed.clone(), ONCE)["A"].charges_that_broke, 1);
        assert_eq!(seen_of(routed, removed)["A"].charges_that_broke, 1);
        assert_eq!(seen_of(beaten.clone(), ONCE)["A"].charges_that_broke, 1);
        assert!(seen_of(beaten, removed).get("A").is_none_or(|s| s.charges_that_broke == 0));
    }

    /// Ch14 3.0 (b), dotc D35: R, Worn, holds two charges (a draw on line 10 of turn 1, a win
    /// on line 20 of turn 3): one feat. A charge it retreats from, or one that came while it
    /// was Fresh, does not count; one held charge alone is no feat.
    #[test]
    fn ch14_3_0_held_its_ground_twice_while_worn_or_spent() {
        let events = vec![
            (1, 10, contact("A", "R", Health::Worn, true)),
            (1, 10, melee("A", "R", MeleeOutcome::BloodyDraw)),
            (2, 5, contact("C", "R", Health::Fresh, true)),
            (2, 5, melee("C", "R", MeleeOutcome::DefenderWins)),
            (2, 9, contact("A", "R", Health::Spent, true)),
            (2, 9, melee("A", "R", MeleeOutcome::AttackerWins)),
            (2, 9, retreat("R")),
            (3, 20, contact("C", "R", Health::Spent, true)),
            (3, 20, melee("C", "R", MeleeOutcome::DefenderWins)),
        ];
        let s = seen_of(events.clone(), ONCE);
        assert_eq!(s["R"].held_turns, [1, 3]);
        assert_eq!(s["R"].feats(&track(), ONCE), [0, 1, 0]);
        // Under `xp_held_attacks = turn` the two came in different turns: no feat.
        let turn = FeatRulings { held_within_a_turn: true, ..ONCE };
        assert_eq!(seen_of(events[..2].to_vec(), ONCE)["R"].feats(&track(), ONCE), [0, 0, 0]);
        assert_eq!(s["R"].feats(&track(), turn), [0, 0, 0]);
    }

    /// Ch14 3.0 (b) under `xp_held_attacks = turn` (dotc D35): R, Worn then Spent, holds two
    /// charges in turn 2 (a draw on line 5, a win on line 9) and a third in turn 4: the two of
    /// turn 2 are the feat, once (dotc D36); the lone one of turn 4 adds nothing. Under `each`,
    /// still one: turn 4 has one charge, not two.
    #[test]
    fn ch14_3_0_held_twice_within_one_turn_under_the_turn_switch() {
        let events = vec![
            (2, 5, contact("A", "R", Health::Worn, true)),
            (2, 5, melee("A", "R", MeleeOutcome::BloodyDraw)),
            (2, 9, contact("C", "R", Health::Spent, true)),
            (2, 9, melee("C", "R", MeleeOutcome::DefenderWins)),
            (4, 3, contact("A", "R", Health::Spent, true)),
            (4, 3, melee("A", "R", MeleeOutcome::DefenderWins)),
        ];
        let turn = FeatRulings { held_within_a_turn: true, ..ONCE };
        let s = seen_of(events.clone(), turn);
        assert_eq!(s["R"].held_turns, [2, 2, 4]);
        assert_eq!(s["R"].feats(&track(), turn), [0, 1, 0]);
        let each = FeatRulings { each_time: true, ..turn };
        assert_eq!(s["R"].feats(&track(), each), [0, 1, 0]);
        // The charge of turn 2 alone with that of turn 4: no two in one turn, no feat.
        let apart: Vec<_> = events[..2].iter().chain(&events[4..]).cloned().collect();
        assert_eq!(seen_of(apart, turn)["R"].feats(&track(), turn), [0, 0, 0]);
    }

    /// Ch14 3.0 (c), dotc D35: A's volleys take 1 stand of the battery H and 1 of the elite E:
    /// 2, one feat. Stands of the regular R, of its own side's units, or taken by another unit
    /// do not count.
    #[test]
    fn ch14_3_0_two_stands_of_guns_or_elite_regiments() {
        let s = seen_of(
            vec![
                (1, 10, lost("H", 1, "A")),
                (1, 11, lost("R", 3, "A")),
                (1, 12, lost("E", 1, "A")),
                (1, 13, lost("E", 2, "C")),
                (1, 14, lost("G", 2, "S")),
            ],
            ONCE,
        );
        assert_eq!(s["A"].stands_of_guns_or_elite, 2);
        assert_eq!(s["A"].feats(&track(), ONCE), [0, 0, 1]);
        assert_eq!(s["C"].stands_of_guns_or_elite, 2);
        assert_eq!(s["S"].stands_of_guns_or_elite, 2, "a battery of the other side is guns");
        let one = seen_of(vec![(1, 10, lost("H", 1, "A")), (1, 11, lost("R", 1, "A"))], ONCE);
        assert_eq!(one["A"].feats(&track(), ONCE), [0, 0, 0]);
    }

    /// Ch14 3.0: a battery keeps no experience track: its melee win and its stands taken from an
    /// elite regiment find no feat.
    #[test]
    fn ch14_3_0_a_battery_finds_no_feat() {
        let s = seen_of(
            vec![
                (1, 10, lost("E", 2, "G")),
                (1, 11, contact("G", "R", Health::Fresh, true)),
                (1, 11, melee("G", "R", MeleeOutcome::AttackerWins)),
            ],
            ONCE,
        );
        assert!(!s.contains_key("G"));
    }

    /// Ch14 3.0 "up to a maximum of 2 XP per single battle": A does all three feats (a charge
    /// that breaks R, two Worn holds, 2 stands of the battery H); regular at 1 XP it ends at 3,
    /// not 4: 2 XP in the battle and no more.
    #[test]
    fn ch14_3_0_a_regiment_earning_two_xp_in_one_battle_and_no_more() {
        let a = |defender_health| contact("R", "A", defender_health, true);
        let s = seen_of(
            vec![
                (1, 10, contact("A", "R", Health::Fresh, true)),
                (1, 10, melee("A", "R", MeleeOutcome::AttackerWins)),
                (1, 10, retreat("R")),
                (2, 3, a(Health::Worn)),
                (2, 3, melee("R", "A", MeleeOutcome::DefenderWins)),
                (2, 4, contact("S", "A", Health::Worn, true)),
                (2, 4, melee("S", "A", MeleeOutcome::BloodyDraw)),
                (3, 7, lost("H", 2, "A")),
            ],
            ONCE,
        );
        let done = s["A"].feats(&track(), ONCE);
        assert_eq!(done, [1, 1, 1]);
        assert_eq!(track().after_battle(1, done.iter().sum()), 3);
    }

    /// dotc D36: two charges that break the enemy are one feat under `once`, two under `each`
    /// (still at most 2 XP a battle).
    #[test]
    fn ch14_3_0_a_feat_done_twice_by_the_ruling_xp_repeat_feat() {
        let charge = |line, defender: &str| {
            vec![
                (1, line, contact("A", defender, Health::Fresh, true)),
                (1, line, melee("A", defender, MeleeOutcome::AttackerWins)),
            ]
        };
        let events = [charge(10, "R"), charge(11, "S")].concat();
        let s = seen_of(events, ONCE);
        let each = FeatRulings { each_time: true, ..ONCE };
        assert_eq!(s["A"].feats(&track(), ONCE), [1, 0, 0]);
        assert_eq!(s["A"].feats(&track(), each), [2, 0, 0]);
        assert_eq!(track().after_battle(0, 2), 2);
    }
}
