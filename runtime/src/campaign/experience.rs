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
        let need = |v: Option<u32>, key: &str| v.ok_or(format!("`experience track` has no `{key}` (Ch14 3.0)"));
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
    pub fn feats(&self, rulings: FeatRulings) -> [u32; 3] {
        let charged = self.charges_that_broke;
        let held = if rulings.held_within_a_turn {
            let mut by_turn: BTreeMap<u32, u32> = BTreeMap::new();
            for t in &self.held_turns {
                *by_turn.entry(*t).or_default() += 1;
            }
            by_turn.values().map(|n| n / 2).sum::<u32>()
        } else {
            self.held_turns.len() as u32 / 2
        };
        let inflicted = self.stands_of_guns_or_elite / 2;
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
                let guns_or_elite = units.get(unit).is_some_and(|u| {
                    u.kind == "battery" || u.quality.as_deref() == Some(elite)
                });
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
