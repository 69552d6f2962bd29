//! Buildings (Ch16 4.3).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// Who may garrison a structure (Ch16 4.3).
    pub enum Garrison {
        Infantry = "infantry",
        DismountedCavalry = "dismounted_cavalry",
        Cavalry = "cavalry",
        Artillery = "artillery",
    }
}

pub const STRUCTURE_PROPS: &[PropSpec] = &[
    req("capacity", "capacity <count>", "Stands that may garrison it (Ch16 4.3)."),
    opt("garrison", "garrison infantry|dismounted_cavalry|cavalry|artillery [, ...]", "Who may garrison it."),
    req("cover", COVER_USAGE, "The garrison's cover save."),
    opt("melee", "melee none | melee <+n|-n> <side>", "Shock modifier for the garrison."),
    opt("arc", "arc <degrees>", "The garrison's firing arc."),
    opt("dice", "dice <count> per stand", "Dice the garrison rolls per stand."),
    opt("damage", "damage <target>", "What a solid-shot hit rolls to damage it."),
    opt("collapse_at", "collapse_at <count>", "Damage at which it collapses."),
    opt("collapse_loss", "collapse_loss <count>", "Stands the garrison loses when it collapses."),
    opt("rubble", "rubble none | rubble light|heavy <target>", "The cover of its rubble once collapsed."),
    flag("flank_immune", "The garrison takes no flank melee penalties."),
    flag("no_hasty_works", "Hasty works cannot be built in it (Ch13 14.0)."),
];

/// A building (Ch16 4.3).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Structure {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Stands it holds.
    pub capacity: u32,
    pub garrison: Vec<Garrison>,
    pub cover: Cover,
    pub melee: Option<MeleeModifier>,
    pub flank_immune: bool,
    /// Firing arc in degrees (360: all round).
    pub arc: Option<u32>,
    pub dice: Option<DicePool>,
    /// A solid-shot hit damages it on this roll.
    pub damage: Option<u32>,
    pub collapse_at: Option<u32>,
    pub collapse_loss: Option<u32>,
    /// The cover its rubble gives once collapsed.
    pub rubble: Option<Cover>,
    pub no_hasty_works: bool,
}

pub(super) fn read_structure(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Structure {
    Structure {
        meta,
        capacity: r.read("capacity", |c| c.count("a number of stands")).unwrap_or(0),
        garrison: r.read("garrison", |c| c.choices::<Garrison>()).unwrap_or_default(),
        cover: r.read("cover", read_cover).unwrap_or(Cover::NONE),
        melee: r.read("melee", read_optional_melee).flatten(),
        flank_immune: r.flag("flank_immune"),
        arc: r.read("arc", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let degrees = c.count("an arc in degrees")?;
            if degrees > 360 { Err(Problem::new(at, "an arc is at most 360 degrees")) } else { Ok(degrees) }
        }),
        dice: r.read("dice", |c| {
            let dice = c.count("a number of dice")?;
            c.keyword("per")?;
            Ok(DicePool { dice, per: c.choice::<DicePer>()? })
        }),
        damage: r.read("damage", |c| c.target()),
        collapse_at: r.read("collapse_at", |c| c.count("a number of damage points")),
        collapse_loss: r.read("collapse_loss", |c| c.count("a number of stands")),
        rubble: r.read("rubble", read_cover),
        no_hasty_works: r.flag("no_hasty_works"),
    }
}

impl Describe for Structure {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("holds {} stands", self.capacity), fmt_cover(&self.cover)];
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if let Some(arc) = self.arc {
            parts.push(format!("{arc}-degree arc"));
        }
        if let (Some(damage), Some(at)) = (self.damage, self.collapse_at) {
            parts.push(format!("solid shot damages on {damage}+, collapses at {at}"));
        }
        parts
    }
}
