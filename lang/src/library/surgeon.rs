//! The Surgeon's roll of a campaign's post-battle sequence (Ch14 2.0): what a stand lost in a
//! battle needs on its d6 to return, to be only hospitalised, and what the side holding the
//! field adds.
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const SURGEON_PROPS: &[PropSpec] = &[
    req("returns", "returns <target>", "The roll from which a lost stand returns to the roster (Ch14 2.0)."),
    req(
        "hospital",
        "hospital <target>",
        "The roll from which a lost stand that does not return goes to hospital; below it the stand is lost for good (Ch14 2.0).",
    ),
    req(
        "field_bonus",
        "field_bonus <modifier>",
        "What the side holding the field adds to each of its Surgeon's rolls (Ch14 2.0, RULINGS G20).",
    ),
    req(
        "misses",
        "misses <battles>",
        "How many battles a hospitalised stand misses before it returns (Ch14 2.0).",
    ),
];

/// The Surgeon's roll; the stdlib's id is `roll`.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Surgeon {
    #[serde(flatten)]
    pub meta: EntryMeta,
    pub returns: Option<u32>,
    pub hospital: Option<u32>,
    pub field_bonus: Option<i32>,
    pub misses: Option<u32>,
}

pub(super) fn read_surgeon(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Surgeon {
    Surgeon {
        meta,
        returns: r.read("returns", |c| c.target()),
        hospital: r.read("hospital", |c| c.target()),
        field_bonus: r.read("field_bonus", |c| c.modifier()),
        misses: r.read("misses", |c| c.count("a number of battles")),
    }
}

impl Describe for Surgeon {
    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(t) = self.returns {
            parts.push(format!("returns on {t}+"));
        }
        if let Some(t) = self.hospital {
            parts.push(format!("hospital on {t}+"));
        }
        if let Some(b) = self.field_bonus {
            parts.push(format!("{b:+} holding the field"));
        }
        if let Some(m) = self.misses {
            parts.push(format!("misses {m} battle(s)"));
        }
        if parts.is_empty() {
            parts.push(String::from("surgeon's roll"));
        }
        parts
    }
}
