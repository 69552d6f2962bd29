//! Historical army traits (Ch16 9.0); the file is not `trait.rs` because `trait` is a keyword.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// The category column of Ch16 9.0.
    pub enum TraitCategory {
        Shock = "shock",
        Morale = "morale",
        Elite = "elite",
        Firepower = "firepower",
    }
}

word_enum! {
    /// What forced a Discipline check, for modifiers that apply to some checks only.
    pub enum CheckCause {
        ClosingVolley = "closing_volley",
        Shock = "shock",
        PassageOfLines = "passage_of_lines",
        Any = "any",
    }
}

word_enum! {
    /// What a trait lets a unit roll again.
    pub enum RerollWhat {
        MissedDie = "missed_die",
        CoverSave = "cover_save",
    }
}

pub const TRAIT_PROPS: &[PropSpec] = &[
    req("category", "category shock|morale|elite|firepower", "The category column of Ch16 9.0."),
    many("melee", MELEE_USAGE, "Shock modifier (Ch16 7.3, 9.0)."),
    many(
        "discipline",
        "discipline <+n|-n> vs closing_volley|shock|passage_of_lines|any",
        "Modifier to some Discipline checks.",
    ),
    opt(
        "defender_check",
        "defender_check <target> for <quality id>, ... [unless <cover class>]",
        "A Discipline check the unit it charges must pass before melee or be disordered.",
    ),
    opt("first_fire_check", "first_fire_check <target>", "A Discipline check the first time fire hurts it."),
    flag("halts_on_fail", "Failing that check also halts the unit for the turn."),
    opt(
        "ignore_suppression",
        "ignore_suppression <count> per turn|volley",
        "Natural-6 Shock results it ignores.",
    ),
    opt("rally", "rally <target>", "Its Natural Rally roll, replacing the quality's."),
    many(
        "reroll",
        "reroll <count> missed_die|cover_save [at <band>] [per turn|volley]",
        "Dice it may roll again (RULINGS C27).",
    ),
    many("hits", "hits <band> <target>", "Its to-hit number in a band, replacing the weapon's."),
    opt("bonus_dice", "bonus_dice <+n> within <inches>", "Extra dice at close range."),
    opt("max_range", "max_range <inches>", "It cannot fire beyond this."),
    flag("free_screen", "Detaches a skirmish screen without spending movement."),
    opt("fired_at", "fired_at <+n|-n>", "To-hit modifier of fire aimed at the unit (Ch13 9.0)."),
    flag("no_assault_on_formed", "Cannot declare an assault at a formed enemy, line or column (Ch13 9.0)."),
    opt("module", "module <module name>", "The optional module (Ch13) that provides it."),
];

/// `discipline +1 vs closing_volley`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct DisciplineModifier {
    pub value: i32,
    pub cause: CheckCause,
}

/// Rebel Yell's test of the defender (Ch16 9.0).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct DefenderCheck {
    pub target: u32,
    /// Qualities that must test.
    pub qualities: Vec<String>,
    /// Defenders in cover of this class are exempt.
    pub unless: Option<CoverClass>,
}

/// `reroll 1 missed_die at medium per volley`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Reroll {
    pub count: u32,
    pub what: RerollWhat,
    pub band: Option<BandName>,
    pub per: Option<Per>,
}

/// `hits short 3+`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BandHits {
    pub band: BandName,
    pub hits: u32,
}

/// `bonus_dice +1 within 3`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CloseBonusDice {
    pub dice: u32,
    pub within: f64,
}

/// `ignore_suppression 1 per turn`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Allowance {
    pub count: u32,
    pub per: Per,
}

/// A historical army trait (Ch16 9.0).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Trait {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub category: TraitCategory,
    pub melee: Vec<MeleeModifier>,
    pub discipline: Vec<DisciplineModifier>,
    pub defender_check: Option<DefenderCheck>,
    /// Seen the Elephant (RULINGS G9: a separate roll from any Shock save).
    pub first_fire_check: Option<u32>,
    pub halts_on_fail: bool,
    /// Iron Discipline (RULINGS G9: does not stop canister disorder).
    pub ignore_suppression: Option<Allowance>,
    pub rally: Option<u32>,
    /// Steady: cover saves only (RULINGS C27).
    pub rerolls: Vec<Reroll>,
    pub hits: Vec<BandHits>,
    pub bonus_dice: Option<CloseBonusDice>,
    pub max_range: Option<f64>,
    pub free_screen: bool,
    /// The to-hit modifier of fire aimed at the unit, as the table prints it (-1: harder to hit;
    /// Elite Sharpshooters, Ch13 9.0); 0 when it has none.
    pub fired_at: i32,
    /// It may not charge a formed enemy, a line or a column (Elite Sharpshooters, Ch13 9.0).
    #[serde(default)]
    pub no_assault_on_formed: bool,
    /// The optional module that provides the trait; it counts only with the module on.
    pub module: Option<String>,
}

pub(super) fn read_trait(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Trait {
    let defender_check = r.read("defender_check", |c| {
        let target = c.target()?;
        c.keyword("for")?;
        let qualities = c.ids("a quality id", Some("unless"))?;
        let unless = if c.eat("unless") { Some(c.choice::<CoverClass>()?) } else { None };
        Ok((target, qualities, unless))
    });
    let defender_check = defender_check.map(|(target, qualities, unless)| {
        for q in &qualities {
            r.refer(EntryKind::Quality, q);
        }
        DefenderCheck { target, qualities: qualities.into_iter().map(|q| q.value).collect(), unless }
    });
    Trait {
        meta,
        category: r.read("category", |c| c.choice::<TraitCategory>()).unwrap_or(TraitCategory::Morale),
        melee: r.read_all("melee", read_melee),
        discipline: r.read_all("discipline", |c| {
            let value = c.modifier()?;
            c.keyword("vs")?;
            Ok(DisciplineModifier { value, cause: c.choice::<CheckCause>()? })
        }),
        defender_check,
        first_fire_check: r.read("first_fire_check", |c| c.target()),
        halts_on_fail: r.flag("halts_on_fail"),
        ignore_suppression: r.read("ignore_suppression", |c| {
            let count = c.count("a number of results")?;
            c.keyword("per")?;
            Ok(Allowance { count, per: c.choice::<Per>()? })
        }),
        rally: r.read("rally", |c| c.target()),
        rerolls: r.read_all("reroll", |c| {
            let count = c.count("a number of dice")?;
            let what = c.choice::<RerollWhat>()?;
            let band = if c.eat("at") { Some(c.choice::<BandName>()?) } else { None };
            let per = if c.eat("per") { Some(c.choice::<Per>()?) } else { None };
            Ok(Reroll { count, what, band, per })
        }),
        hits: r.read_all("hits", |c| Ok(BandHits { band: c.choice::<BandName>()?, hits: c.target()? })),
        bonus_dice: r.read("bonus_dice", |c| {
            let at = c.peek().map(|v| v.span).unwrap_or_default();
            let dice = u32::try_from(c.modifier()?)
                .map_err(|_| Problem::new(at, "bonus dice cannot be negative"))?;
            c.keyword("within")?;
            Ok(CloseBonusDice { dice, within: c.inches()? })
        }),
        max_range: r.read("max_range", |c| c.inches()),
        free_screen: r.flag("free_screen"),
        fired_at: r.read("fired_at", |c| c.modifier()).unwrap_or(0),
        no_assault_on_formed: r.flag("no_assault_on_formed"),
        module: r.read("module", |c| c.word("a module name")).map(|w| w.value),
    }
}

impl Describe for Trait {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![self.category.word().to_string()];
        parts.extend(self.melee.iter().map(fmt_melee));
        for d in &self.discipline {
            parts.push(format!("Discipline {} vs {}", fmt_mod(d.value), d.cause.word().replace('_', " ")));
        }
        if let Some(check) = &self.defender_check {
            parts.push(format!("{} defenders test on {}+", check.qualities.join("/"), check.target));
        }
        if let Some(t) = self.first_fire_check {
            parts.push(format!("tests on {t}+ when first hurt by fire"));
        }
        if let Some(a) = &self.ignore_suppression {
            parts.push(format!("ignores {} Shock result per {}", a.count, a.per.word()));
        }
        if let Some(t) = self.rally {
            parts.push(format!("rallies on {t}+"));
        }
        for r in &self.rerolls {
            let mut text = format!("re-rolls {} {}", r.count, r.what.word().replace('_', " "));
            if let Some(band) = r.band {
                text.push_str(&format!(" at {} range", band.word()));
            }
            if let Some(per) = r.per {
                text.push_str(&format!(" per {}", per.word()));
            }
            parts.push(text);
        }
        for h in &self.hits {
            parts.push(format!("hits {}+ at {} range", h.hits, h.band.word()));
        }
        if let Some(b) = &self.bonus_dice {
            parts.push(format!("+{} within {}\"", plural(b.dice, "die"), fmt_num(b.within)));
        }
        if let Some(m) = self.max_range {
            parts.push(format!("cannot fire beyond {}\"", fmt_num(m)));
        }
        if self.free_screen {
            parts.push(String::from("free skirmish screen"));
        }
        if self.no_assault_on_formed {
            parts.push(String::from("cannot charge a formed line or column"));
        }
        if self.fired_at != 0 {
            parts.push(format!("fire at it {} to hit", fmt_mod(self.fired_at)));
        }
        if let Some(m) = &self.module {
            parts.push(format!("module {m}"));
        }
        parts
    }
}
