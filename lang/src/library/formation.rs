//! Formations (Ch16 3.2, 3.4; open order Ch13 22.0).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const FORMATION_PROPS: &[PropSpec] = &[
    opt("module", "module <module name>", "The optional module (Ch13) that provides it."),
    opt("speed", "speed <inches> [to <inches>]", "Movement rate in the open, or a spread (Ch16 3.2)."),
    opt("rough_speed", "rough_speed <inches>", "Movement rate in woods or rough ground, where it differs."),
    req("fire", "fire all|none | fire front <count>", "Which stands may fire (Ch16 3.2)."),
    req("frontage", "frontage all|<count>", "Stands in the front rank; each stand is 1\" wide (Ch16 3.2)."),
    opt("stand_gap", "stand_gap <inches>", "Gap between stands in the rank."),
    many("melee", MELEE_USAGE, "Shock modifier for units in this formation (Ch16 7.3)."),
    many("save", "save <+n|-n> [vs artillery]", "Modifier to its cover saves (Ch16 3.2, 5.6, RULINGS C30)."),
    opt("cover", COVER_USAGE, "Cover it counts as having in the open (Ch16 5.6)."),
    opt("cover_bonus", "cover_bonus <+n>", "Improvement to every cover save (Ch13 22.0)."),
    opt("to_hit", "to_hit <+n|-n>", "Modifier to its own shooting."),
    opt(
        "charged",
        "charged melee|removed | charged overrun <count> fall_back <inches>",
        "What happens when a formed enemy charges it (RULINGS C23, G14).",
    ),
    many(
        "change",
        "change <formation id> half|all|<inches>",
        "Movement spent changing to another formation (Ch16 3.2).",
    ),
    many("pips", "pips <count> [per regiment|brigade]", "Pips to adopt it (Ch13 22.0)."),
    opt(
        "screen_ahead",
        "screen_ahead <inches> to <inches>",
        "How far ahead a skirmish screen stands (Ch16 3.4).",
    ),
    opt("screen_cost", "screen_cost half|all|<inches>", "Parent's movement spent detaching a screen."),
    opt("screen_to_hit", "screen_to_hit <+n|-n>", "Modifier to fire at the parent through its screen."),
    opt("screen_hits", "screen_hits <count>", "Hits that remove a screen."),
    opt(
        "screen_min_stands",
        "screen_min_stands <count>",
        "Least stands a regiment needs to detach a screen (Ch10 1.0).",
    ),
    flag("screen_recall_free", "Recalling the screen is free if the parent stood still."),
    flag("no_assault", "Cannot declare an assault."),
    flag("ignores_terrain_slowdown", "Terrain does not slow it beyond its own rates."),
    flag("ignores_terrain_disorder", "Never disordered by entering terrain."),
    flag("free_pivot", "Stands pivot in place at no cost."),
    opt(
        "requires_trait",
        "requires_trait <trait id>",
        "Only a unit with this trait may take the formation (Ch13 9.0).",
    ),
];

/// Which stands of a formation fire (Ch16 3.2 "Firepower Capacity").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Firepower {
    All,
    Front(u32),
    None,
}

/// Stands in the front rank (Ch16 3.2 "Tabletop Frontage"; each stand 1" wide).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Frontage {
    All,
    Stands(u32),
}

/// A cover-save modifier of a formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SaveModifier {
    pub value: i32,
    /// Only against artillery (Ch16 3.2 assault column; RULINGS C30: all artillery).
    pub artillery_only: bool,
}

/// What happens when a formed enemy charges the formation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WhenCharged {
    /// An ordinary melee.
    Melee,
    /// Destroyed outright (road column, RULINGS C23).
    Removed,
    /// No melee: loses stands, is disordered and falls back (open order, RULINGS G14).
    Overrun { stands: u32, fall_back: f64 },
}

/// `change line half`
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct FormationChange {
    pub to: String,
    pub cost: Cost,
}

/// A skirmish screen (Ch16 3.4).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Screen {
    /// Placed this far ahead of the parent, least and most.
    pub ahead: (f64, f64),
    pub cost: Option<Cost>,
    /// Modifier to fire at the parent through the screen.
    pub to_hit: Option<i32>,
    /// Hits that remove it.
    pub hits: Option<u32>,
    pub min_stands: Option<u32>,
    pub recall_free: bool,
}

/// A formation (Ch16 3.2; open order Ch13 22.0).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Formation {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub module: Option<String>,
    /// Ch16 3.2 "Speed"; None where the rulebook gives none (skirmish order).
    pub speed: Option<f64>,
    /// The upper end of a spread ("10-12"" for road column).
    pub speed_max: Option<f64>,
    pub rough_speed: Option<f64>,
    pub fire: Firepower,
    pub frontage: Frontage,
    /// Gap between stands in inches (open order 1").
    pub stand_gap: f64,
    pub melee: Vec<MeleeModifier>,
    pub saves: Vec<SaveModifier>,
    /// Cover it counts as having in the open (skirmish order, Ch16 5.6).
    pub cover: Option<Cover>,
    /// Open order +1 (Ch13 22.0; RULINGS G17: the only improvement).
    pub cover_bonus: i32,
    pub to_hit: i32,
    pub charged: WhenCharged,
    pub changes: Vec<FormationChange>,
    pub pips: Vec<PipCost>,
    pub screen: Option<Screen>,
    pub no_assault: bool,
    pub ignores_terrain_slowdown: bool,
    pub ignores_terrain_disorder: bool,
    pub free_pivot: bool,
    /// Only a unit with this trait may take it (the sharpshooters' skirmish order, Ch13 9.0).
    #[serde(default)]
    pub requires_trait: Option<String>,
}

impl Formation {
    /// Stands across the front rank: None for all of them.
    pub fn frontage_stands(&self) -> Option<u32> {
        match self.frontage {
            Frontage::All => None,
            Frontage::Stands(n) => Some(n),
        }
    }

    /// Gap between stands in a rank, inches.
    pub fn gap_inches(&self) -> f64 {
        self.stand_gap
    }

    /// Stands that fire out of `stands`.
    pub fn firing_stands(&self, stands: u32) -> u32 {
        match self.fire {
            Firepower::All => stands,
            Firepower::Front(n) => n.min(stands),
            Firepower::None => 0,
        }
    }

    /// The movement cost of changing to formation `to`, if the rules price it.
    pub fn change_cost(&self, to: &str) -> Option<Cost> {
        self.changes.iter().find(|c| c.to == to).map(|c| c.cost)
    }
}

pub(super) fn read_formation(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Formation {
    let speed = r.read("speed", |c| {
        let speed = c.inches()?;
        let max = if c.eat("to") { Some(c.inches()?) } else { None };
        Ok((speed, max))
    });
    let changes: Vec<(Spanned<String>, Cost)> =
        r.read_all("change", |c| Ok((c.word("a formation id")?, read_cost(c)?)));
    for (to, _) in &changes {
        r.refer(EntryKind::Formation, to);
    }
    let requires_trait = r.read("requires_trait", |c| c.word("a trait id"));
    if let Some(t) = &requires_trait {
        r.refer(EntryKind::Trait, t);
    }
    let screen_ahead = r.read("screen_ahead", |c| {
        let least = c.inches()?;
        c.keyword("to")?;
        Ok((least, c.inches()?))
    });
    let screen = Screen {
        ahead: screen_ahead.unwrap_or((0.0, 0.0)),
        cost: r.read("screen_cost", read_cost),
        to_hit: r.read("screen_to_hit", |c| c.modifier()),
        hits: r.read("screen_hits", |c| c.count("a number of hits")),
        min_stands: r.read("screen_min_stands", |c| c.count("a number of stands")),
        recall_free: r.flag("screen_recall_free"),
    };
    let has_screen = screen_ahead.is_some()
        || screen.cost.is_some()
        || screen.to_hit.is_some()
        || screen.hits.is_some()
        || screen.min_stands.is_some()
        || screen.recall_free;
    if has_screen && screen_ahead.is_none() {
        r.missing("screen_ahead");
    }
    Formation {
        meta,
        module: r.read("module", |c| c.word("a module name")).map(|w| w.value),
        speed: speed.map(|s| s.0),
        speed_max: speed.and_then(|s| s.1),
        rough_speed: r.read("rough_speed", |c| c.inches()),
        fire: r
            .read("fire", |c| {
                if c.eat("all") {
                    Ok(Firepower::All)
                } else if c.eat("none") {
                    Ok(Firepower::None)
                } else {
                    c.keyword("front")?;
                    Ok(Firepower::Front(c.count("a number of stands")?))
                }
            })
            .unwrap_or(Firepower::All),
        frontage: r
            .read("frontage", |c| {
                if c.eat("all") {
                    Ok(Frontage::All)
                } else {
                    Ok(Frontage::Stands(c.count("a number of stands")?))
                }
            })
            .unwrap_or(Frontage::All),
        stand_gap: r.read("stand_gap", |c| c.inches()).unwrap_or(0.0),
        melee: r.read_all("melee", read_melee),
        saves: r.read_all("save", |c| {
            let value = c.modifier()?;
            let artillery_only = if c.eat("vs") {
                c.keyword("artillery")?;
                true
            } else {
                false
            };
            Ok(SaveModifier { value, artillery_only })
        }),
        cover: r.read("cover", read_cover),
        cover_bonus: r.read("cover_bonus", |c| c.modifier()).unwrap_or(0),
        to_hit: r.read("to_hit", |c| c.modifier()).unwrap_or(0),
        charged: r
            .read("charged", |c| {
                if c.eat("melee") {
                    Ok(WhenCharged::Melee)
                } else if c.eat("removed") {
                    Ok(WhenCharged::Removed)
                } else {
                    c.keyword("overrun")?;
                    let stands = c.count("a number of stands lost")?;
                    c.keyword("fall_back")?;
                    Ok(WhenCharged::Overrun { stands, fall_back: c.inches()? })
                }
            })
            .unwrap_or(WhenCharged::Melee),
        changes: changes.into_iter().map(|(to, cost)| FormationChange { to: to.value, cost }).collect(),
        pips: r.read_all("pips", read_pip_cost),
        screen: has_screen.then_some(screen),
        no_assault: r.flag("no_assault"),
        ignores_terrain_slowdown: r.flag("ignores_terrain_slowdown"),
        ignores_terrain_disorder: r.flag("ignores_terrain_disorder"),
        free_pivot: r.flag("free_pivot"),
        requires_trait: requires_trait.map(|t| t.value),
    }
}

impl Describe for Formation {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        match (self.speed, self.speed_max) {
            (Some(s), Some(max)) => parts.push(format!("speed {}-{}\"", fmt_num(s), fmt_num(max))),
            (Some(s), None) => parts.push(format!("speed {}\"", fmt_num(s))),
            _ => {}
        }
        parts.push(match self.fire {
            Firepower::All => String::from("every stand fires"),
            Firepower::Front(n) => format!("front {} fire", plural(n, "stand")),
            Firepower::None => String::from("cannot fire"),
        });
        if let Frontage::Stands(n) = self.frontage {
            parts.push(format!("{} wide", plural(n, "stand")));
        }
        parts.extend(self.melee.iter().map(fmt_melee));
        for s in &self.saves {
            let against = if s.artillery_only { " against artillery" } else { "" };
            parts.push(format!("saves {}{against}", fmt_mod(s.value)));
        }
        if let Some(cover) = &self.cover {
            parts.push(format!("{} in the open", fmt_cover(cover)));
        }
        if self.cover_bonus != 0 {
            parts.push(format!("cover {}", fmt_mod(self.cover_bonus)));
        }
        if self.to_hit != 0 {
            parts.push(format!("to hit {}", fmt_mod(self.to_hit)));
        }
        if self.no_assault {
            parts.push(String::from("cannot assault"));
        }
        if let Some(t) = &self.requires_trait {
            parts.push(format!("only for units with the {t} trait"));
        }
        match self.charged {
            WhenCharged::Melee => {}
            WhenCharged::Removed => parts.push(String::from("destroyed if charged")),
            WhenCharged::Overrun { stands, fall_back } => parts.push(format!(
                "overrun if charged: loses {}, falls back {}\"",
                plural(stands, "stand"),
                fmt_num(fall_back)
            )),
        }
        parts
    }
}
