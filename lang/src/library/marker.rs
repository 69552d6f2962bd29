//! Markers a unit can carry (Ch16 5.4-5.7, 8.3, 11.0).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// Conditions that modify the Discipline save against Shock (Ch16 5.5).
    pub enum SaveCondition {
        /// More than 75% of the starting stands.
        Fresh = "fresh",
        /// Less than 35% of the starting stands.
        Spent = "spent",
        /// In light or heavy cover.
        Cover = "cover",
        /// Fired on by a second unit this phase (RULINGS G9).
        Crossfire = "crossfire",
    }
}

word_enum! {
    /// What removes a smoke marker (RULE-05-5.4, RULINGS C17).
    pub enum SmokeClearing {
        ForwardMove = "forward_move",
        HoldFire = "hold_fire",
        BriskWind = "brisk_wind",
    }
}

pub const MARKER_PROPS: &[PropSpec] = &[
    opt("module", "module <module name>", "The optional module that uses it (Ch16 11.0)."),
    opt("applies_to", "applies_to <arm>, ...", "The arms that receive it."),
    opt("max", "max <count>", "Most of these a unit may carry."),
    opt("excess", "excess <marker id>", "What one more beyond the maximum becomes (RULE-07-3.4)."),
    many(
        "to_hit",
        "to_hit <+n|-n> [beyond <inches>]",
        "Modifier to shooting, optionally only beyond a range.",
    ),
    opt("move", "move <+n|-n>", "Change to movement, in inches."),
    opt("melee", MELEE_USAGE, "Shock modifier."),
    many(
        "shock_trigger",
        "shock_trigger <count> within|beyond <inches>",
        "Natural 6s that force a Shock save (Ch16 5.5).",
    ),
    many(
        "discipline_mod",
        "discipline_mod fresh|spent|cover|crossfire <+n|-n>",
        "Modifier to the Discipline save against Shock (Ch16 5.5).",
    ),
    opt(
        "smoke_wall",
        "smoke_wall <count> beyond <inches> [within <inches>]",
        "Regiments whose smoke merges into a wall, its sight limit, and the widest gap between adjacent regiments.",
    ),
    opt("removed_by", "removed_by forward_move|hold_fire|brisk_wind, ...", "What clears it (RULINGS C17)."),
    opt("trigger_ones", "trigger_ones <count>", "Natural 1s in one volley that give it (RULINGS C14)."),
    opt("hits_per_stand", "hits_per_stand <count>", "Unsaved hits that make one lost stand (Ch16 5.4)."),
    flag("no_assault", "The unit cannot declare an assault."),
    flag("no_double_time", "The unit cannot double-time."),
    opt("size", "size <inches>", "How wide and deep the marker is on the table (RULE-05-5.1)."),
    opt(
        "rest",
        "rest <turns> beyond <inches>",
        "Consecutive turns at rest, farther than this from every enemy, that take it off (RULE-07-3.5).",
    ),
    flag("first_volley_only", "It applies to the unit's first volley only, then goes."),
];

/// `to_hit -1 beyond 6`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ToHitModifier {
    pub value: i32,
    /// Applies only to fire at longer range than this (gunsmoke: 6").
    pub beyond: Option<f64>,
}

/// `shock_trigger 2 beyond 6`: natural 6s needed in one volley (Ch16 5.5, RULINGS C3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct ShockTrigger {
    pub sixes: u32,
    pub reach: Reach,
}

/// `discipline_mod fresh +1`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SaveConditionModifier {
    pub condition: SaveCondition,
    pub value: i32,
}

/// `smoke_wall 3 beyond 8 within 1` (RULE-05-5.5, RULINGS C32; Ch16 3.3 for the gap).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SmokeWall {
    pub regiments: u32,
    pub beyond: f64,
    /// The widest gap (inches) between two regiments whose smoke still merges: "adjacent" (the
    /// lateral interval of Ch16 3.3). None: the regiments must touch.
    pub within: Option<f64>,
}

/// A marker a unit can carry.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Marker {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub module: Option<String>,
    pub applies_to: Vec<Arm>,
    pub max: Option<u32>,
    /// A second Disorder becomes a micro-hit (RULE-07-3.4).
    pub excess: Option<String>,
    pub to_hit: Vec<ToHitModifier>,
    /// Inches added to movement (Disorder -2, RULE-05-4.4, RULINGS C6).
    pub move_penalty: f64,
    pub melee: Option<MeleeModifier>,
    pub no_assault: bool,
    pub no_double_time: bool,
    pub shock_triggers: Vec<ShockTrigger>,
    pub discipline_mods: Vec<SaveConditionModifier>,
    pub smoke_wall: Option<SmokeWall>,
    pub removed_by: Vec<SmokeClearing>,
    /// Low Ammo: natural 1s in one volley (RULINGS C14).
    pub trigger_ones: Option<u32>,
    pub hits_per_stand: Option<u32>,
    pub first_volley_only: bool,
    /// Inches: its width and depth on the table (RULE-05-5.1: a smoke marker is a 1" tuft).
    pub size: Option<f64>,
    /// Consecutive turns of rest, and the inches to the nearest enemy they must stay beyond,
    /// that take it off (RULE-07-3.5).
    pub rest: Option<(u32, f64)>,
}

impl Marker {
    /// Natural 6s that trigger Shock at `distance` (Ch16 5.5, RULINGS C3).
    pub fn sixes_for_shock(&self, distance: f64) -> Option<u32> {
        self.shock_triggers
            .iter()
            .find(|t| match t.reach {
                Reach::Within(d) => distance <= d,
                Reach::Beyond(d) => distance > d,
            })
            .map(|t| t.sixes)
    }
}

pub(super) fn read_marker(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Marker {
    let excess = r.read("excess", |c| c.word("a marker id"));
    if let Some(e) = &excess {
        r.refer(EntryKind::Marker, e);
    }
    Marker {
        meta,
        module: r.read("module", |c| c.word("a module name")).map(|w| w.value),
        applies_to: r.read("applies_to", |c| c.choices::<Arm>()).unwrap_or_default(),
        max: r.read("max", |c| c.count("a number of markers")),
        excess: excess.map(|e| e.value),
        to_hit: r.read_all("to_hit", |c| {
            let value = c.modifier()?;
            let beyond = if c.eat("beyond") { Some(c.inches()?) } else { None };
            Ok(ToHitModifier { value, beyond })
        }),
        move_penalty: r.read("move", |c| c.signed_inches()).unwrap_or(0.0),
        melee: r.read("melee", read_melee),
        no_assault: r.flag("no_assault"),
        no_double_time: r.flag("no_double_time"),
        shock_triggers: r.read_all("shock_trigger", |c| {
            let sixes = c.count("a number of natural 6s")?;
            Ok(ShockTrigger { sixes, reach: read_reach(c)? })
        }),
        discipline_mods: r.read_all("discipline_mod", |c| {
            Ok(SaveConditionModifier { condition: c.choice::<SaveCondition>()?, value: c.modifier()? })
        }),
        smoke_wall: r.read("smoke_wall", |c| {
            let regiments = c.count("a number of regiments")?;
            c.keyword("beyond")?;
            let beyond = c.inches()?;
            let within = if c.eat("within") { Some(c.inches()?) } else { None };
            Ok(SmokeWall { regiments, beyond, within })
        }),
        removed_by: r.read("removed_by", |c| c.choices::<SmokeClearing>()).unwrap_or_default(),
        trigger_ones: r.read("trigger_ones", |c| c.count("a number of natural 1s")),
        hits_per_stand: r.read("hits_per_stand", |c| c.count("a number of hits")),
        first_volley_only: r.flag("first_volley_only"),
        size: r.read("size", |c| c.inches()),
        rest: r.read("rest", |c| {
            let turns = c.count("a number of turns")?;
            c.keyword("beyond")?;
            Ok((turns, c.inches()?))
        }),
    }
}

impl Describe for Marker {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(module) = &self.module {
            parts.push(format!("optional module {module}"));
        }
        for t in &self.shock_triggers {
            parts.push(match t.reach {
                Reach::Within(d) => format!("{} at {}\" or less", plural(t.sixes, "natural 6"), fmt_num(d)),
                Reach::Beyond(d) => {
                    format!("{} beyond {}\"", plural(t.sixes, "natural 6"), fmt_num(d))
                }
            });
        }
        if let Some(n) = self.trigger_ones {
            parts.push(format!("given by {n} or more natural 1s in a volley"));
        }
        for t in &self.to_hit {
            match t.beyond {
                Some(d) => parts.push(format!("to hit {} beyond {}\"", fmt_mod(t.value), fmt_num(d))),
                None => parts.push(format!("to hit {}", fmt_mod(t.value))),
            }
        }
        if self.first_volley_only {
            parts.push(String::from("first volley only"));
        }
        if self.move_penalty != 0.0 {
            parts.push(format!("move {}\"", fmt_signed(self.move_penalty)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if let Some(wall) = &self.smoke_wall {
            parts.push(format!(
                "{} adjacent regiments{} make a wall blocking sight beyond {}\"",
                wall.regiments,
                wall.within.map_or_else(String::new, |w| format!(" ({}\" apart at most)", fmt_num(w))),
                fmt_num(wall.beyond)
            ));
        }
        if let Some(d) = self.size {
            parts.push(format!("{}\" across", fmt_num(d)));
        }
        if let Some((turns, beyond)) = self.rest {
            parts.push(format!(
                "off after {} of rest beyond {}\" of the enemy",
                plural(turns, "turn"),
                fmt_num(beyond)
            ));
        }
        if let Some(n) = self.hits_per_stand {
            parts.push(format!("{n} unsaved hits make a lost stand"));
        }
        match (self.max, &self.excess) {
            (Some(max), Some(excess)) => parts.push(format!("at most {max}; one more becomes a {excess}")),
            (Some(max), None) => parts.push(format!("at most {max}")),
            _ => {}
        }
        if parts.is_empty() {
            parts.push(String::from("marker"));
        }
        parts
    }
}
