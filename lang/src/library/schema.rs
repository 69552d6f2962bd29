//! What a schema is made of: one [`PropSpec`] per key, and the keys every kind takes.

use super::*;

/// One key an entry kind takes.
#[derive(Clone, Copy, Debug, Serialize, serde::Deserialize)]
pub struct PropSpec {
    pub key: &'static str,
    /// The shape of the line, shown in help: `short to <inches> hits <target>`.
    pub usage: &'static str,
    /// One sentence for completions and hovers.
    pub doc: &'static str,
    pub required: bool,
    pub repeatable: bool,
}

pub(super) const fn req(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: true, repeatable: false }
}

pub(super) const fn opt(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: false, repeatable: false }
}

pub(super) const fn many(key: &'static str, usage: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage, doc, required: false, repeatable: true }
}

/// A property with no values: present means yes.
pub(super) const fn flag(key: &'static str, doc: &'static str) -> PropSpec {
    PropSpec { key, usage: key, doc, required: false, repeatable: false }
}

/// Keys every kind takes.
pub const COMMON_PROPS: &[PropSpec] = &[
    opt(
        "source",
        "source \"Ch16 5.2\"",
        "Where the rulebook states this entry: section, RULE id or RULINGS id.",
    ),
    opt("note", "note \"<text>\"", "A short note in your own words, shown in hovers."),
];

pub(super) const MELEE_USAGE: &str = "melee <+n|-n> attacker|defender|either|charging";
pub(super) const COVER_USAGE: &str = "cover none | cover light|heavy <target>";
