//! Situational modifiers of no formation, terrain, marker or trait (Ch16 2.4, 5.6, 7.3, 10.1).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const MODIFIER_PROPS: &[PropSpec] = &[
    opt("to_hit", "to_hit <+n|-n>", "Modifier to the shooting it applies to (Ch16 5.6)."),
    opt("melee", MELEE_USAGE, "Shock modifier for the side the word names (Ch16 7.3)."),
    opt(
        "opponent_melee",
        "opponent_melee <+n|-n>",
        "Shock modifier for the other side of the same melee (Ch16 10.1).",
    ),
    opt("discipline", "discipline <+n|-n>", "Modifier to Discipline checks (Ch16 2.4)."),
    opt(
        "run",
        "run <inches>",
        "Open ground the charge must cross at its end for the modifier to apply (RULINGS G10).",
    ),
    opt(
        "weapons",
        "weapons <weapon id>, ...",
        "The weapons it applies to; others are left alone (Ch13 20.0).",
    ),
    opt(
        "hits",
        "hits <n>+",
        "What those weapons hit on while it applies, whatever their band says (Ch13 20.0).",
    ),
    opt("dice", "dice <+n>", "Bonus attack dice for the fire it applies to (Ch13 7.0: bouncing solid shot)."),
    opt(
        "engaged",
        "engaged <count>",
        "The engaged stands the unit counts as in melee, whatever its size (RULINGS G3).",
    ),
    opt("check", "check <n>+", "The Discipline check the situation calls for (Ch13 10.0, 18.0)."),
    opt(
        "behind",
        "behind <inches>",
        "How far behind a unit's centre a supporting regiment may stand (Ch13 19.0).",
    ),
    opt("pips", "pips <+n|-n>", "Change to a brigadier's staff pips this turn (Ch13 3.0)."),
];

/// A situational modifier that belongs to no formation, terrain, marker or trait (Ch16 2.4,
/// 5.6, 7.3, 10.1).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Modifier {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub to_hit: i32,
    pub melee: Option<MeleeModifier>,
    /// Shock modifier for the other side of the melee (Ch16 10.1: -2 to the infantry).
    pub opponent_melee: i32,
    pub discipline: i32,
    /// Open ground the end of the charge must cross (RULINGS G10: the last 3").
    pub run: Option<f64>,
    /// Engaged stands the unit counts as (RULINGS G3: a battery counts 1).
    pub engaged: Option<u32>,
    /// The weapon ids it applies to; empty for a modifier of no particular weapon.
    pub weapons: Vec<String>,
    /// The to-hit target those weapons use while it applies (Ch13 20.0: 5+).
    pub hits: Option<u32>,
    /// The Discipline check the situation calls for (`check 4+`: Ch13 10.0, 18.0).
    #[serde(default)]
    pub check: Option<u32>,
    /// Bonus attack dice for the fire it applies to (Ch13 7.0: +2 for bouncing solid shot).
    pub dice: i32,
    /// How far behind a unit's centre a supporting regiment may stand (Ch13 19.0: 3").
    #[serde(default)]
    pub behind: Option<f64>,
    /// Change to a brigadier's staff pips this turn (Ch13 3.0: the General at the Front, +2).
    #[serde(default)]
    pub pips: i32,
}

pub(super) fn read_modifier(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Modifier {
    let weapons = r.read("weapons", |c| c.ids("a weapon id", None)).unwrap_or_default();
    for w in &weapons {
        r.refer(EntryKind::Weapon, w);
    }
    Modifier {
        meta,
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        melee: r.read("melee", read_melee),
        opponent_melee: r.read("opponent_melee", |c| c.modifier()).unwrap_or(0),
        discipline: r.read("discipline", |c| c.modifier()).unwrap_or(0),
        run: r.read("run", |c| c.inches()),
        engaged: r.read("engaged", |c| c.count("a number of stands")),
        weapons: weapons.into_iter().map(|w| w.value).collect(),
        hits: r.read("hits", |c| c.target()),
        check: r.read("check", |c| c.target()),
        dice: r.read("dice", |c| c.modifier()).unwrap_or(0),
        behind: r.read("behind", |c| c.inches()),
        pips: r.read("pips", |c| c.modifier()).unwrap_or(0),
    }
}

impl Describe for Modifier {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if self.to_hit != 0 {
            parts.push(format!("to hit {}", fmt_mod(self.to_hit)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.opponent_melee != 0 {
            parts.push(format!("the other side {} in melee", fmt_mod(self.opponent_melee)));
        }
        if self.discipline != 0 {
            parts.push(format!("Discipline {}", fmt_mod(self.discipline)));
        }
        if let Some(d) = self.run {
            parts.push(format!("needs {}\" of open ground", fmt_num(d)));
        }
        if let Some(n) = self.engaged {
            parts.push(format!("counts as {} engaged", plural(n, "stand")));
        }
        if let Some(hits) = self.hits {
            parts.push(format!("hits on {hits}+"));
        }
        if self.dice != 0 {
            parts.push(format!("{} dice", fmt_mod(self.dice)));
        }
        if !self.weapons.is_empty() {
            parts.push(format!("for {}", self.weapons.join(", ")));
        }
        if let Some(check) = self.check {
            parts.push(format!("Discipline check {check}+"));
        }
        if let Some(d) = self.behind {
            parts.push(format!("with a formed friend up to {}\" behind", fmt_num(d)));
        }
        if self.pips != 0 {
            parts.push(format!("staff pips {}", fmt_mod(self.pips)));
        }
        if parts.is_empty() {
            parts.push(String::from("modifier"));
        }
        parts
    }
}
