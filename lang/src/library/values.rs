//! Vocabularies and value shapes several entry kinds share (an arm, a melee side, cover, a
//! movement cost, a pip price, a distance band), with their readers and summaries.

use super::*;

word_enum! {
    /// The arm a unit belongs to, as movement rows and weapon bands tell them apart.
    pub enum Arm {
        Infantry = "infantry",
        /// Mounted or dismounted cavalry (RULINGS C21 gives it the Ch16 10.3 bands).
        Cavalry = "cavalry",
        Artillery = "artillery",
        HorseArtillery = "horse_artillery",
        /// Brigadiers and other command stands.
        Leader = "leader",
    }
}

word_enum! {
    /// Which side of a melee a shock modifier helps or hurts (Ch16 7.3).
    pub enum MeleeSide {
        Attacker = "attacker",
        Defender = "defender",
        Either = "either",
        /// The unit when it charges or counter-charges (Reaction 5).
        Charging = "charging",
    }
}

word_enum! {
    /// The cover classes of Ch16 5.4.
    pub enum CoverClass {
        None = "none",
        Light = "light",
        Heavy = "heavy",
    }
}

word_enum! {
    /// A unit of the pip price of formations and orders.
    pub enum PipUnit {
        Regiment = "regiment",
        Brigade = "brigade",
    }
}

word_enum! {
    /// How often a once-only effect renews.
    pub enum Per {
        Turn = "turn",
        Volley = "volley",
    }
}

/// A melee shock modifier and the side it applies to (Ch16 7.3).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct MeleeModifier {
    pub value: i32,
    pub side: MeleeSide,
}

/// A cover class and its save (Ch16 5.4: light 5+, heavy 4+).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Cover {
    pub class: CoverClass,
    /// The die target of the save; None for no cover.
    pub save: Option<u32>,
}

impl Cover {
    pub const NONE: Cover = Cover { class: CoverClass::None, save: None };
}

/// Movement spent on something: half the unit's move, all of it, or a fixed distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cost {
    Half,
    All,
    Inches(f64),
}

/// When a pip price applies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PipCondition {
    Always,
    /// The target is within this many inches of the brigadier.
    Within(f64),
    Beyond(f64),
    Per(PipUnit),
}

/// `pips 2 beyond 12`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct PipCost {
    pub pips: u32,
    pub condition: PipCondition,
}

/// The distance band of a command tier.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reach {
    /// Up to and including this many inches (above the previous tier's limit).
    Within(f64),
    /// Everything past this many inches.
    Beyond(f64),
}

pub(super) fn read_melee(c: &mut Cursor<'_>) -> Result<MeleeModifier, Problem> {
    let value = c.modifier()?;
    let side = c.choice::<MeleeSide>()?;
    Ok(MeleeModifier { value, side })
}

/// `melee none` or a modifier.
pub(super) fn read_optional_melee(c: &mut Cursor<'_>) -> Result<Option<MeleeModifier>, Problem> {
    if c.eat("none") { Ok(None) } else { read_melee(c).map(Some) }
}

pub(super) fn read_cover(c: &mut Cursor<'_>) -> Result<Cover, Problem> {
    let class = c.choice::<CoverClass>()?;
    let save = match class {
        CoverClass::None => None,
        CoverClass::Light | CoverClass::Heavy => Some(c.target()?),
    };
    Ok(Cover { class, save })
}

pub(super) fn read_cost(c: &mut Cursor<'_>) -> Result<Cost, Problem> {
    if c.eat("half") {
        Ok(Cost::Half)
    } else if c.eat("all") {
        Ok(Cost::All)
    } else if c.next_is_number() {
        Ok(Cost::Inches(c.inches()?))
    } else {
        let value = c.take("`half`, `all` or a distance in inches")?;
        Err(Problem::found(value, "`half`, `all` or a distance in inches"))
    }
}

pub(super) fn read_reach(c: &mut Cursor<'_>) -> Result<Reach, Problem> {
    if c.eat("within") {
        Ok(Reach::Within(c.inches()?))
    } else if c.eat("beyond") {
        Ok(Reach::Beyond(c.inches()?))
    } else {
        let value = c.take("`within` or `beyond`")?;
        Err(Problem::found(value, "`within` or `beyond`"))
    }
}

pub(super) fn read_pip_cost(c: &mut Cursor<'_>) -> Result<PipCost, Problem> {
    let pips = c.count("a number of pips")?;
    let condition = if c.eat("within") {
        PipCondition::Within(c.inches()?)
    } else if c.eat("beyond") {
        PipCondition::Beyond(c.inches()?)
    } else if c.eat("per") {
        PipCondition::Per(c.choice::<PipUnit>()?)
    } else {
        PipCondition::Always
    };
    Ok(PipCost { pips, condition })
}

pub(super) fn fmt_melee(m: &MeleeModifier) -> String {
    format!("melee {} {}", fmt_mod(m.value), m.side.word())
}

pub(super) fn fmt_cover(c: &Cover) -> String {
    match c.save {
        Some(save) => format!("{} cover ({save}+)", c.class.word()),
        None => String::from("no cover"),
    }
}

pub(super) fn fmt_cost(c: &Cost) -> String {
    match c {
        Cost::Half => String::from("half move"),
        Cost::All => String::from("whole move"),
        Cost::Inches(n) => format!("{}\"", fmt_num(*n)),
    }
}

pub(super) fn fmt_pips(p: &PipCost) -> String {
    let pips = if p.pips == 1 { String::from("1 pip") } else { format!("{} pips", p.pips) };
    match p.condition {
        PipCondition::Always => pips,
        PipCondition::Within(d) => format!("{pips} within {}\"", fmt_num(d)),
        PipCondition::Beyond(d) => format!("{pips} beyond {}\"", fmt_num(d)),
        PipCondition::Per(unit) => format!("{pips} per {}", unit.word()),
    }
}
