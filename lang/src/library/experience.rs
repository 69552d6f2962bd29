//! Regimental experience of a campaign (Ch14 3.0): what a feat earns, the most a battle may add
//! and the track's top, and the grade each total of XP gives, with what it unlocks. The grades
//! are the troop qualities a scenario gives its units (`quality veteran`), so a regiment's grade
//! in a campaign is a word its scenarios already use (dotc D37).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const EXPERIENCE_PROPS: &[PropSpec] = &[
    req("per_feat", "per_feat <xp>", "The XP one feat earns (Ch14 3.0)."),
    req("per_battle", "per_battle <xp>", "The most XP a unit may earn in one battle (Ch14 3.0)."),
    req("max_xp", "max_xp <xp>", "The top of the experience track (Ch14 3.0)."),
    req(
        "held_attacks",
        "held_attacks <count>",
        "The enemy charges a Worn or Spent unit must hold for the holding feat (Ch14 3.0, dotc D35).",
    ),
    req(
        "inflicted_stands",
        "inflicted_stands <count>",
        "The stands of enemy guns or Elite units a unit must take for the third feat (Ch14 3.0, dotc D35).",
    ),
    PropSpec {
        key: "grade",
        usage: "grade <quality id> <xp>",
        doc: "From this much XP a unit has this quality as its grade (Ch14 3.0; RULINGS G20: 3 XP is Veteran).",
        required: true,
        repeatable: true,
    },
    many(
        "choose",
        "choose <quality id> <trait id>, ...",
        "From this grade on a unit may choose one of these army traits, once (Ch14 3.0, dotc D37).",
    ),
    many(
        "gains",
        "gains <quality id> <trait id>, ...",
        "Traits a unit gains on reaching this grade (Ch14 3.0: Iron Discipline at Crack/Elite).",
    ),
];

/// One row of the tier table: the grade (a quality id) and the XP from which a unit has it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Grade {
    pub quality: String,
    pub from_xp: u32,
}

/// Traits a grade unlocks: to choose one of (`choose`) or gained outright (`gains`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct GradeTraits {
    pub quality: String,
    pub traits: Vec<String>,
}

/// The experience track (Ch14 3.0); the stdlib's id is `track`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Experience {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub per_feat: Option<u32>,
    pub per_battle: Option<u32>,
    pub max_xp: Option<u32>,
    /// Enemy charges held while Worn or Spent that make the holding feat.
    #[serde(default)]
    pub held_attacks: Option<u32>,
    /// Stands of enemy guns or Elite units taken that make the third feat.
    #[serde(default)]
    pub inflicted_stands: Option<u32>,
    /// The tier table, as written.
    pub grades: Vec<Grade>,
    pub choose: Vec<GradeTraits>,
    pub gains: Vec<GradeTraits>,
}

fn grade_traits(c: &mut Cursor<'_>) -> Result<(Spanned<String>, Vec<Spanned<String>>), Problem> {
    let quality = c.word("a quality id")?;
    let traits = c.ids("a trait id", None)?;
    Ok((quality, traits))
}

pub(super) fn read_experience(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Experience {
    let grades = r.read_all("grade", |c| {
        let quality = c.word("a quality id")?;
        let xp = c.count("an amount of XP")?;
        Ok((quality, xp))
    });
    let choose = r.read_all("choose", grade_traits);
    let gains = r.read_all("gains", grade_traits);
    for (quality, _) in &grades {
        r.refer(EntryKind::Quality, quality);
    }
    for (quality, traits) in choose.iter().chain(&gains) {
        r.refer(EntryKind::Quality, quality);
        for t in traits {
            r.refer(EntryKind::Trait, t);
        }
    }
    let lists = |v: Vec<(Spanned<String>, Vec<Spanned<String>>)>| {
        v.into_iter()
            .map(|(q, ts)| GradeTraits {
                quality: q.value,
                traits: ts.into_iter().map(|t| t.value).collect(),
            })
            .collect()
    };
    Experience {
        meta,
        per_feat: r.read("per_feat", |c| c.count("an amount of XP")),
        per_battle: r.read("per_battle", |c| c.count("an amount of XP")),
        max_xp: r.read("max_xp", |c| c.count("an amount of XP")),
        held_attacks: r.read("held_attacks", |c| c.count("a number of charges")),
        inflicted_stands: r.read("inflicted_stands", |c| c.count("a number of stands")),
        grades: grades.into_iter().map(|(q, xp)| Grade { quality: q.value, from_xp: xp }).collect(),
        choose: lists(choose),
        gains: lists(gains),
    }
}

impl Describe for Experience {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(n) = self.per_feat {
            parts.push(format!("{n} XP a feat"));
        }
        if let Some(n) = self.per_battle {
            parts.push(format!("at most {n} a battle"));
        }
        if let Some(n) = self.max_xp {
            parts.push(format!("{n} XP at most"));
        }
        if let Some(n) = self.held_attacks {
            parts.push(format!("{n} charges held"));
        }
        if let Some(n) = self.inflicted_stands {
            parts.push(format!("{n} stands of guns or Elite taken"));
        }
        if !self.grades.is_empty() {
            let tiers: Vec<String> =
                self.grades.iter().map(|g| format!("{} from {}", g.quality, g.from_xp)).collect();
            parts.push(tiers.join(", "));
        }
        for c in &self.choose {
            parts.push(format!("{} may choose one of {}", c.quality, c.traits.join(", ")));
        }
        for g in &self.gains {
            parts.push(format!("{} gains {}", g.quality, g.traits.join(", ")));
        }
        if parts.is_empty() {
            parts.push(String::from("experience track"));
        }
        parts
    }
}
