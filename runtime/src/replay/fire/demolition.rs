//! Artillery demolition of a building (Ch16 4.3, 5.3, dotc D6).
//!
//! Ch16 4.3: each solid-shot hit rolls 4+ (the structure's `damage`) for a structural hit, and
//! at 4 (`collapse_at`) the building collapses: the garrison loses a stand (`collapse_loss`) and
//! the survivors are Disordered, in rubble with light cover (`rubble light 5+`). How dotc reads
//! what the rulebook leaves open (dotc D6, docs/rulings.md):
//!
//! - solid shot is a battery's fire at any band of its weapon but canister (Ch16 5.3);
//! - it strikes the building through its garrison: each hit of a volley at a garrison of a
//!   standing building, before the saves, rolls one damage die, written on the fire line as
//!   `structure [d, ...]`; an empty building is no target (RULE-05-1.1 names enemy units to fire
//!   at) and takes none;
//! - a Parrott's "+1 damage vs. stone structures" (Ch16 5.3, the weapon's `structure_damage`)
//!   is one structural hit more for each hit that damages (`parrott_damage = extra_point`), or
//!   +1 to the damage die (`to_the_roll`);
//! - at the collapse the stand comes off the unit fired at; every unit inside is Disordered
//!   (RULE-07-3.4: one already Disordered takes a micro-hit) and stays where it stood, now in the
//!   rubble: the battlefield gives it the rubble's cover and no 360-degree arc, and the building
//!   blocks no sight. It holds no garrison again.
//!
//! The claim words are `structure N` (the building's structural hits after the volley) and
//! `collapsed`.

use super::*;
use crate::engine::morale;
use crate::rulings::ParrottDamage;
use dotc_lang::library::BandName;

const RULE: &str = "Ch16 4.3, 5.3, dotc D6";

/// What one volley did to the building its target garrisons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Demolition {
    pub building: String,
    /// Its structural hits after the volley.
    pub damage: u32,
    /// Whether this volley brought it down.
    pub collapsed: bool,
}

/// A volley of solid shot at a building's garrison, worked out before the dice are rolled.
#[derive(Clone, Debug)]
pub(super) struct SolidShot {
    building: String,
    /// What a damage die needs.
    needed: u32,
    /// Structural hits each damaging die does.
    per_hit: u32,
    collapse_at: u32,
}

/// Roll one damage die for each of a solid-shot volley's `hits` from the line's `structure [..]`
/// dice. None (and a finding) when the line lacks them.
pub(super) fn roll(
    r: &mut Replayer<'_>,
    shot: &SolidShot,
    hits: u32,
    dice: &mut LogDice<'_>,
) -> Option<Vec<u8>> {
    use crate::dice::{DiceSource, RollFor};
    if hits == 0 {
        return Some(Vec::new());
    }
    dice.announce(RollFor {
        what: "the structural damage roll, one die a hit",
        rule: "Ch16 4.3",
        after: None,
    });
    match dice.roll(Purpose::Structure, usize::try_from(hits).unwrap_or(usize::MAX)) {
        Ok(faces) => Some(faces),
        Err(e) => {
            let message = format!(
                "{e}: write `structure [..]` with one die for each of the {hits} hits on {}",
                shot.building
            );
            r.here(Level::Error, message, RULE);
            None
        }
    }
}

impl Game {
    /// Whether a volley by `firer` at `target` from `range` inches is solid shot at a standing
    /// building the target garrisons: a battery at a band of its weapon other than canister. The
    /// damage die's number and the structural hits a damaging die does, by dotc D6.
    pub(super) fn solid_shot(&self, firer: UnitId, target: UnitId, range: f64) -> Option<SolidShot> {
        let name = self.garrison(target)?;
        let building = self.bf.building(name).filter(|b| !b.collapsed)?;
        let (needed, collapse_at) = (building.structure.damage?, building.structure.collapse_at?);
        let u = self.state.unit(firer).filter(|u| u.is_battery())?;
        let weapon = self.rules.data.weapon(&u.weapon)?;
        let band = battlefield::range::band(weapon, weapon_arm(&u.arm), range)?;
        if band.name == BandName::Canister {
            return None;
        }
        let bonus = u32::try_from(weapon.structure_damage).unwrap_or(0);
        let (needed, per_hit) = match self.rules.rulings.parrott_damage {
            ParrottDamage::ExtraPoint => (needed, 1 + bonus),
            // A 1 never damages, as a 1 never hits (RULINGS G1).
            ParrottDamage::ToTheRoll => (needed.saturating_sub(bonus).max(2), 1),
        };
        Some(SolidShot { building: name.to_string(), needed, per_hit, collapse_at })
    }

    /// Add the structural hits of the damage dice `faces` (None: the line lacked them, and the
    /// building is left as it was) and bring the building down at its limit.
    pub(super) fn demolish(
        &mut self,
        r: &mut Replayer<'_>,
        shot: SolidShot,
        faces: Option<&[u8]>,
        target: UnitId,
    ) -> Demolition {
        let SolidShot { building: name, needed, per_hit, collapse_at } = shot;
        let before = self.bf.building(&name).map_or(0, |b| b.damage);
        let Some(faces) = faces.filter(|f| !f.is_empty()) else {
            return Demolition { building: name, damage: before, collapsed: false };
        };
        let damaging = faces.iter().filter(|&&f| u32::from(f) >= needed).count();
        let added = u32::try_from(damaging).unwrap_or(u32::MAX).saturating_mul(per_hit);
        let damage = before.saturating_add(added);
        let collapsed = damage >= collapse_at;
        if let Some(b) = self.bf.buildings.iter_mut().find(|b| b.name.as_deref() == Some(name.as_str())) {
            b.damage = damage;
            b.collapsed = collapsed;
        }
        let each = if per_hit > 1 { format!(", {per_hit} structural hits each") } else { String::new() };
        let text = format!(
            "{name}: solid shot rolls {faces:?} for damage, needing {needed}+: {damaging} damaging{each}; \
             {damage} structural hits of {collapse_at}"
        );
        r.emit([Event::new(What::Note { text }, RULE)]);
        if collapsed {
            self.collapse(r, &name, target);
        }
        Demolition { building: name, damage, collapsed }
    }

    /// The building `name` collapses (Ch16 4.3, dotc D6): the unit fired at loses the
    /// structure's `collapse_loss` stands and every unit inside is Disordered, in the rubble.
    fn collapse(&mut self, r: &mut Replayer<'_>, name: &str, target: UnitId) {
        let loss = self.bf.building(name).and_then(|b| b.structure.collapse_loss).unwrap_or(0);
        let inside: Vec<UnitId> = self
            .book
            .garrisons
            .iter()
            .filter(|(_, b)| b.as_str() == name)
            .filter_map(|(unit, _)| self.state.unit_named(unit))
            .collect();
        let mut events = vec![Event::new(
            What::Note { text: format!("{name} collapses: its garrison is in the rubble, Disordered") },
            RULE,
        )];
        let mut done =
            morale::remove_stands(&self.rules, &mut self.state, target, loss, &mut events, RULE).map(|_| ());
        for unit in inside {
            if done.is_ok() {
                done = morale::place_disorder(&self.rules, &mut self.state, unit, &mut events, RULE);
            }
        }
        r.emit(events);
        if let Err(e) = done {
            r.refused(&e, RULE);
        }
    }
}

/// The claim words of a demolition (`structure N`, `collapsed`) against what the volley did: a
/// word the volley gives no ground for, or a collapse the claim leaves out, is a finding.
pub(super) fn check_claim(r: &mut Replayer<'_>, claim: &dotc_lang::ast::Claim, done: Option<&Demolition>) {
    let words = |item: &dotc_lang::ast::ClaimItem| {
        item.words.iter().map(|w| w.value.as_str()).collect::<Vec<_>>().join(" ")
    };
    let mut said_collapse = false;
    for item in &claim.items {
        match words(item).as_str() {
            "structure" => {
                let claimed = item.numbers.first().map(|n| n.value);
                let given = done.map(|d| d.damage);
                match (claimed, given) {
                    (Some(n), Some(damage)) if f64::from(damage) == n => {}
                    (Some(n), Some(damage)) => r.find(
                        item.span,
                        Level::Error,
                        format!("structural hits: the rules give {damage}, the log claims {n}"),
                        RULE,
                    ),
                    (Some(n), None) => r.find(
                        item.span,
                        Level::Error,
                        format!(
                            "structural hits: the rules give none (only a battery's solid shot at a garrisoned \
                             building damages it), the log claims {n}"
                        ),
                        RULE,
                    ),
                    (None, _) => r.find(
                        item.span,
                        Level::Error,
                        "`structure` needs the building's structural hits after the volley: `structure 2`",
                        RULE,
                    ),
                }
            }
            "collapsed" => {
                said_collapse = true;
                if !done.is_some_and(|d| d.collapsed) {
                    let given = done.map_or("no damage to a building".to_string(), |d| {
                        format!("{} structural hits on {}, standing", d.damage, d.building)
                    });
                    r.find(
                        item.span,
                        Level::Error,
                        format!("collapse: the rules give {given}, the log claims collapsed"),
                        RULE,
                    );
                }
            }
            _ => {}
        }
    }
    if let Some(d) = done.filter(|d| d.collapsed && !said_collapse) {
        let message =
            format!("collapse: the rules give {} collapsed, the log claims it standing", d.building);
        r.find(claim.span, Level::Error, message, RULE);
    }
}
