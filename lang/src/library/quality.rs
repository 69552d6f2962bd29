//! Troop qualities (Ch16 5.5, 8.3).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const QUALITY_PROPS: &[PropSpec] = &[
    req("discipline", "discipline <target>", "The Discipline check (Ch16 5.5, RULE-07-1.4)."),
    req("rally", "rally <target>", "The Natural Rally roll (Ch16 8.3, RULE-07-3.3)."),
    opt("traits", "traits <trait id>, ...", "Traits every unit of this quality has (RULINGS C28)."),
];

/// A troop quality (Ch16 5.5, 8.3).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Quality {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Discipline check target (Ch16 5.5, RULE-07-1.4; RULINGS C8: also Passage of Lines).
    pub discipline: u32,
    /// Natural Rally target (Ch16 8.3, RULE-07-3.3).
    pub rally: u32,
    /// Traits every unit of the quality has (RULINGS C28: Green has Seen the Elephant).
    pub traits: Vec<String>,
}

pub(super) fn read_quality(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Quality {
    let traits = r.read("traits", |c| c.ids("a trait id", None)).unwrap_or_default();
    for t in &traits {
        r.refer(EntryKind::Trait, t);
    }
    Quality {
        meta,
        discipline: r.read("discipline", |c| c.target()).unwrap_or(6),
        rally: r.read("rally", |c| c.target()).unwrap_or(6),
        traits: traits.into_iter().map(|t| t.value).collect(),
    }
}

impl Describe for Quality {
    fn parts(&self) -> Vec<String> {
        let mut parts = vec![format!("Discipline {}+, rally {}+", self.discipline, self.rally)];
        if !self.traits.is_empty() {
            parts.push(format!("always has {}", self.traits.join(", ")));
        }
        parts
    }
}
