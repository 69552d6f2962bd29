//! Replacements between a campaign's battles (Ch14 5.0): the die of stands each army drafts,
//! and the dilution of a veteran regiment that takes too many of them at once.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const DRAFT_PROPS: &[PropSpec] = &[
    req(
        "stands",
        "stands d<sides>",
        "The die of replacement stands each army receives in a draft: `d3`, read off a d6 (Ch14 5.0, RULINGS G2).",
    ),
    req(
        "dilution",
        "dilution <count>",
        "A diluted grade's regiment took this many replacement stands or more in one draft (Ch14 5.0).",
    ),
    req(
        "dilutes",
        "dilutes <quality id> ...",
        "The grades a draft dilutes: one tier lower for the next battle (Ch14 5.0).",
    ),
    req(
        "grades",
        "grades <quality id> <quality id> ...",
        "The grades from lowest to highest: a diluted regiment drops one (Ch14 5.0).",
    ),
];

/// A campaign's replacements (Ch14 5.0); the stdlib's id is `replacements`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Draft {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// The sides of the die of stands (3: a d3 read off a d6).
    pub stands: Option<u32>,
    pub dilution: Option<u32>,
    /// Quality ids.
    pub dilutes: Vec<String>,
    /// Quality ids, lowest first.
    pub grades: Vec<String>,
}

impl Draft {
    /// The grade one tier below `grade`; None at the bottom or off the list.
    pub fn below(&self, grade: &str) -> Option<&str> {
        let at = self.grades.iter().position(|g| g == grade)?;
        at.checked_sub(1).and_then(|i| self.grades.get(i)).map(String::as_str)
    }
}

pub(super) fn read_draft(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Draft {
    let stands = r.read("stands", die_sides);
    let dilution = r.read("dilution", |c| c.count("a number of stands"));
    let dilutes = r.read("dilutes", |c| c.ids("a quality id", None)).unwrap_or_default();
    let grades = r.read("grades", |c| c.ids("a quality id", None)).unwrap_or_default();
    for q in dilutes.iter().chain(&grades) {
        r.refer(EntryKind::Quality, q);
    }
    Draft {
        meta,
        stands,
        dilution,
        dilutes: dilutes.into_iter().map(|q| q.value).collect(),
        grades: grades.into_iter().map(|q| q.value).collect(),
    }
}

impl Describe for Draft {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(d) = self.stands {
            parts.push(format!("1D{d} stands an army"));
        }
        if let Some(n) = self.dilution {
            parts.push(format!("{n}+ stands dilute {}", self.dilutes.join(", ")));
        }
        if parts.is_empty() {
            parts.push(String::from("replacements"));
        }
        parts
    }
}
