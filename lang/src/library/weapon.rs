//! Weapons: small arms and artillery pieces (Ch16 5.2, 5.3, 10.3).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

word_enum! {
    /// What sort of weapon (decides who may carry it: a battery takes only artillery).
    pub enum WeaponClass {
        SmallArm = "small_arm",
        Carbine = "carbine",
        Shotgun = "shotgun",
        Artillery = "artillery",
    }
}

word_enum! {
    /// What one block of dice is rolled for: each stand (RULE-05-2.1) or each gun section.
    pub enum DicePer {
        Stand = "stand",
        Section = "section",
    }
}

word_enum! {
    /// A range band (Ch16 5.2, 5.3). `canister` is artillery's first band; canister is never
    /// fired overhead (RULE-05-6.3).
    pub enum BandName {
        Canister = "canister",
        Short = "short",
        Medium = "medium",
        Long = "long",
    }
}

impl BandName {
    /// Nearest first; canister and short are both the first band.
    pub(super) fn rank(self) -> u8 {
        match self {
            BandName::Canister | BandName::Short => 0,
            BandName::Medium => 1,
            BandName::Long => 2,
        }
    }
}

pub const WEAPON_PROPS: &[PropSpec] = &[
    req(
        "class",
        "class small_arm|carbine|shotgun|artillery",
        "What sort of weapon; a battery takes only artillery.",
    ),
    req(
        "dice",
        "dice <count> per stand|section",
        "Dice rolled per firing stand or gun section (RULE-05-2.1).",
    ),
    opt(
        "bonus_dice",
        "bonus_dice <+n> [per <count> stands]",
        "Extra dice per volley; `per 2 stands` adds one per two firing stands, rounded down (RULINGS G16).",
    ),
    opt("canister", "canister to <inches> hits <target>", "Artillery's first band (Ch16 5.3)."),
    opt("short", "short to <inches> hits <target>", "The first small-arms band (Ch16 5.2)."),
    opt("medium", "medium to <inches> hits <target>", "The middle band."),
    opt(
        "long",
        "long to <inches> hits <target>",
        "The farthest band; leave it out if the weapon cannot reach it.",
    ),
    many(
        "cavalry",
        "cavalry <band> to <inches> hits <target>",
        "Replaces a band when cavalry fire the weapon (RULINGS C21: Ch16 10.3 for cavalry).",
    ),
    opt("melee", MELEE_USAGE, "A melee shock modifier for units carrying it (Ch16 10.3 shotguns)."),
    opt(
        "structure_damage",
        "structure_damage <+n>",
        "Extra damage against stone structures and forts (Ch16 5.3 Parrott).",
    ),
    flag("canister_disorder", "Canister hits disorder the target with no save (Ch16 5.3 Napoleon)."),
    flag(
        "ignores_obstacle_light_cover",
        "Light cover from fences, hedges and crests gives no save (Ch16 5.3 howitzer).",
    ),
];

/// `dice 2 per section`
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct DicePool {
    pub dice: u32,
    pub per: DicePer,
}

/// Extra dice added to a volley.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BonusDice {
    /// `bonus_dice +2`: repeaters (Ch16 5.2, 10.3).
    Flat { dice: u32 },
    /// `bonus_dice +1 per 2 stands`: breechloaders, rounded down (RULINGS G16).
    PerStands { dice: u32, stands: u32 },
}

/// One range band: hits on `hits`+ at ranges above `from` up to and including `to`
/// (RULINGS G4; the first band also covers 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct Band {
    pub name: BandName,
    pub from: f64,
    pub to: f64,
    pub hits: u32,
}

impl Band {
    pub fn covers(&self, distance: f64) -> bool {
        (distance > self.from || (self.from == 0.0 && distance >= 0.0)) && distance <= self.to
    }
}

/// A small arm or artillery piece: Ch16 5.2 (infantry), 5.3 (artillery), 10.3 (cavalry).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Weapon {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub class: WeaponClass,
    /// 1D6 per stand (Ch16 5.2) or 2D6 per section (Ch16 5.3).
    pub dice: DicePool,
    /// Repeaters and breechloaders (Ch16 5.2, 10.3, RULINGS G16).
    pub bonus_dice: Option<BonusDice>,
    /// The bands nearest first; no band past the last `to` ("out of range").
    pub bands: Vec<Band>,
    /// Bands that replace the same-named band when cavalry fire it (RULINGS C21).
    pub cavalry_bands: Vec<Band>,
    /// Shotguns and revolvers: +1 melee shock (Ch16 10.3).
    pub melee: Option<MeleeModifier>,
    /// Extra structure damage per hit (Ch16 5.3 Parrott: +1 vs stone).
    pub structure_damage: i32,
    /// Canister hits disorder the target with no save (Ch16 5.3 Napoleon; RULINGS G9: Iron
    /// Discipline does not stop it).
    pub canister_disorder: bool,
    /// Light cover from fences, hedges and crests gives no save (Ch16 5.3 howitzer).
    pub ignores_obstacle_light_cover: bool,
}

impl Weapon {
    /// The bands a unit of this arm uses: the cavalry lines replace bands for cavalry
    /// (RULINGS C21), every other arm uses the base bands.
    pub fn bands_for(&self, arm: Arm) -> Vec<Band> {
        if arm != Arm::Cavalry || self.cavalry_bands.is_empty() {
            return self.bands.clone();
        }
        let merged = self
            .bands
            .iter()
            .map(|b| *self.cavalry_bands.iter().find(|c| c.name == b.name).unwrap_or(b))
            .collect();
        with_lower_bounds(merged)
    }

    /// The band a target at `distance` inches falls in, or None if out of range.
    pub fn band_at(&self, arm: Arm, distance: f64) -> Option<Band> {
        self.bands_for(arm).into_iter().find(|b| b.covers(distance))
    }

    /// The farthest range it can fire at.
    pub fn max_range(&self, arm: Arm) -> f64 {
        self.bands_for(arm).last().map_or(0.0, |b| b.to)
    }

    /// Dice in a volley by `firing` stands or sections, bonus dice included (RULINGS G16:
    /// a breechloader's bonus is floor(stands / 2)).
    pub fn pool(&self, firing: u32) -> u32 {
        let base = self.dice.dice * firing;
        let bonus = match self.bonus_dice {
            None => 0,
            Some(BonusDice::Flat { dice }) => dice,
            Some(BonusDice::PerStands { dice, stands }) => dice * (firing / stands.max(1)),
        };
        base + bonus
    }
}

/// `to 14 hits 4+` after a band name.
pub(super) fn read_band(c: &mut Cursor<'_>, name: BandName) -> Result<Band, Problem> {
    c.keyword("to")?;
    let to = c.inches()?;
    c.keyword("hits")?;
    let hits = c.target()?;
    Ok(Band { name, from: 0.0, to, hits })
}

/// Each band's lower bound is the previous band's upper bound.
pub(super) fn with_lower_bounds(mut bands: Vec<Band>) -> Vec<Band> {
    let mut from = 0.0;
    for band in &mut bands {
        band.from = from;
        from = band.to;
    }
    bands
}

pub(super) fn read_weapon(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Weapon {
    let class = r.read("class", |c| c.choice::<WeaponClass>()).unwrap_or(WeaponClass::SmallArm);
    let dice = r
        .read("dice", |c| {
            let dice = c.count("a number of dice")?;
            c.keyword("per")?;
            Ok(DicePool { dice, per: c.choice::<DicePer>()? })
        })
        .unwrap_or(DicePool { dice: 1, per: DicePer::Stand });
    let bonus_dice = r.read("bonus_dice", |c| {
        let at = c.peek().map(|v| v.span);
        let dice = c.modifier()?;
        let dice = u32::try_from(dice)
            .map_err(|_| Problem::new(at.unwrap_or_default(), "bonus dice cannot be negative"))?;
        if c.eat("per") {
            let stands = c.count("a number of stands")?;
            if stands == 0 {
                return Err(Problem::new(at.unwrap_or_default(), "`per 0 stands` would divide by zero"));
            }
            if !c.eat("stands") {
                c.keyword("stand")?;
            }
            Ok(BonusDice::PerStands { dice, stands })
        } else {
            Ok(BonusDice::Flat { dice })
        }
    });

    // Bands in the order written, checked nearest to farthest.
    let entry = r.entry;
    let mut bands: Vec<(Band, Span)> = Vec::new();
    for prop in &entry.props {
        let Some(name) = BandName::from_word(&prop.key.value) else {
            continue;
        };
        if bands.iter().any(|(b, _)| b.name == name) {
            continue; // reported as a repeated key
        }
        if let Some(band) = r.parse(prop, |c| read_band(c, name)) {
            bands.push((band, prop.span));
        }
    }
    let mut kept: Vec<Band> = Vec::new();
    for (band, span) in bands {
        if let Some(previous) = kept.last() {
            if band.name.rank() <= previous.name.rank() || band.to <= previous.to {
                let problem = format!(
                    "`{}` must come after `{}` and reach farther than {}\"",
                    band.name.word(),
                    previous.name.word(),
                    fmt_num(previous.to)
                );
                r.inconsistent(
                    span,
                    band.name.word(),
                    &problem,
                    "list the bands nearest first: canister or short, then medium, then long",
                );
                continue;
            }
        }
        kept.push(band);
    }
    if kept.is_empty() && !entry.props.iter().any(|p| BandName::from_word(&p.key.value).is_some()) {
        r.missing("short");
    }
    let bands = with_lower_bounds(kept);

    let mut cavalry_bands = Vec::new();
    for prop in entry.props.iter().filter(|p| p.key.value == "cavalry") {
        let Some(band) = r.parse(prop, |c| {
            let name = c.choice::<BandName>()?;
            read_band(c, name)
        }) else {
            continue;
        };
        match bands.iter().position(|b| b.name == band.name) {
            None => r.inconsistent(
                prop.span,
                "cavalry",
                &format!("this weapon has no `{}` band to replace", band.name.word()),
                "a cavalry line replaces a band the weapon already has; add the band first",
            ),
            Some(i) => {
                let from = if i == 0 { 0.0 } else { bands[i - 1].to };
                let next = bands.get(i + 1).map(|b| b.to);
                if band.to <= from || next.is_some_and(|n| band.to >= n) {
                    r.inconsistent(
                        prop.span,
                        "cavalry",
                        &format!(
                            "the replaced `{}` band must end between the bands around it",
                            band.name.word()
                        ),
                        "keep the bands in order, nearest first",
                    );
                } else {
                    cavalry_bands.push(Band { from, ..band });
                }
            }
        }
    }

    Weapon {
        meta,
        class,
        dice,
        bonus_dice,
        bands,
        cavalry_bands,
        melee: r.read("melee", read_melee),
        structure_damage: r.read("structure_damage", |c| c.modifier()).unwrap_or(0),
        canister_disorder: r.flag("canister_disorder"),
        ignores_obstacle_light_cover: r.flag("ignores_obstacle_light_cover"),
    }
}

pub(super) fn fmt_bands(bands: &[Band]) -> String {
    let parts: Vec<String> = bands
        .iter()
        .map(|b| format!("{} {}-{}\" {}+", b.name.word(), fmt_num(b.from), fmt_num(b.to), b.hits))
        .collect();
    parts.join(", ")
}

impl Describe for Weapon {
    fn parts(&self) -> Vec<String> {
        let per = self.dice.per.word();
        let mut parts =
            vec![format!("{}, {}D6 per {per}", self.class.word().replace('_', " "), self.dice.dice)];
        match self.bonus_dice {
            Some(BonusDice::Flat { dice }) => parts.push(format!("+{dice} bonus dice")),
            Some(BonusDice::PerStands { dice, stands }) => {
                parts.push(format!("+{dice} bonus die per {stands} stands"))
            }
            None => {}
        }
        parts.push(fmt_bands(&self.bands));
        if !self.cavalry_bands.is_empty() {
            parts.push(format!("cavalry: {}", fmt_bands(&self.cavalry_bands)));
        }
        if let Some(m) = &self.melee {
            parts.push(fmt_melee(m));
        }
        if self.structure_damage != 0 {
            parts.push(format!("{} damage to structures", fmt_mod(self.structure_damage)));
        }
        if self.canister_disorder {
            parts.push(String::from("canister disorders"));
        }
        if self.ignores_obstacle_light_cover {
            parts.push(String::from("ignores light cover of obstacles"));
        }
        parts
    }
}
