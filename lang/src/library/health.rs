//! Regimental health states (Ch16 8.1, RULE-07-1.2, RULINGS C4).
//!
//! One entry kind in one file: its schema, its typed entry, its reader and its summary.

use super::*;

pub const HEALTH_PROPS: &[PropSpec] = &[
    opt(
        "above",
        "above <percent>",
        "The state holds while more than this percentage of the starting stands is left (Ch16 8.1).",
    ),
    opt(
        "below",
        "below <percent>",
        "The state holds once less than this percentage of the starting stands is left (Ch16 8.1).",
    ),
    opt(
        "at_most",
        "at_most <count>",
        "The state holds once this many stands or fewer are left (Ch16 8.1 table, RULINGS C4).",
    ),
    opt("melee", MELEE_USAGE, "Shock modifier for a unit in this state (Ch16 7.3, 8.1); none if left out."),
    flag(
        "assault_needs_brigadier",
        "The unit may declare an assault only with its brigadier attached (Ch16 7.1, RULE-07-4.2).",
    ),
    flag(
        "tests_under_fire",
        "The unit takes a Discipline check whenever it is fired on (RULE-07-1.4, RULINGS G9).",
    ),
    flag("removed", "The unit is taken off the table at once (Ch16 5.4, 8.1)."),
];

/// A regimental health state (Ch16 8.1, RULE-07-1.2). The bounds are read as RULINGS C4 says
/// (the `health_states` switch): the stand counts first, then the percentages; a state with no
/// bound of its own (Worn) is the one left over. Bounds overlap: Spent's `at_most 2` also holds
/// at 1 stand, where Shattered's `at_most 1` is the tighter and wins.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Health {
    #[serde(flatten)]
    pub meta: EntryMeta,
    /// Holds while the stands left are strictly more than this % of the starting stands.
    pub above_percent: Option<u32>,
    /// Holds while the stands left are strictly less than this % of the starting stands.
    pub below_percent: Option<u32>,
    /// Holds with this many stands left or fewer (the Ch16 8.1 stand count table).
    pub at_most_stands: Option<u32>,
    /// Fresh +1, Spent -1 (Ch16 7.3, 8.1); None for no modifier.
    pub melee: Option<MeleeModifier>,
    /// Spent: assaults only with the brigadier attached (Ch16 7.1, RULE-07-4.2).
    pub assault_needs_brigadier: bool,
    /// Spent: a Discipline check each time it is fired on (RULE-07-1.4, RULINGS G9).
    pub tests_under_fire: bool,
    /// Shattered: removed at once (Ch16 5.4, 8.1).
    pub removed: bool,
}

impl Health {
    /// Whether `left` stands out of `starting` meet this state's percentage bounds. Exact (no
    /// rounding): 3 of 4 stands is 75%, not above 75%. False for a state with no percentage.
    pub fn by_percentage(&self, left: u32, starting: u32) -> bool {
        if self.above_percent.is_none() && self.below_percent.is_none() {
            return false;
        }
        let share = u64::from(left) * 100;
        let of = |percent: u32| u64::from(percent) * u64::from(starting);
        self.above_percent.is_none_or(|p| share > of(p)) && self.below_percent.is_none_or(|p| share < of(p))
    }

    /// Whether `left` stands meet this state's stand count (`at_most`). False for a state
    /// without one.
    pub fn by_stand_count(&self, left: u32) -> bool {
        self.at_most_stands.is_some_and(|n| left <= n)
    }
}

pub(super) fn read_health(r: &mut Reader<'_, '_>, meta: EntryMeta) -> Health {
    let above_percent = r.read("above", |c| c.percent());
    let below_percent = r.read("below", |c| c.percent());
    if let (Some(above), Some(below), Some(prop)) = (above_percent, below_percent, r.first("below")) {
        if below <= above {
            r.inconsistent(
                prop.span,
                "below",
                &format!("no share of stands is both above {above}% and below {below}%"),
                "make `below` greater than `above`, or keep one of them",
            );
        }
    }
    Health {
        meta,
        above_percent,
        below_percent,
        at_most_stands: r.read("at_most", |c| c.count("a number of stands")),
        melee: r.read("melee", read_melee),
        assault_needs_brigadier: r.flag("assault_needs_brigadier"),
        tests_under_fire: r.flag("tests_under_fire"),
        removed: r.flag("removed"),
    }
}

impl Describe for Health {
    fn parts(&self) -> Vec<String> {
        let mut bounds = Vec::new();
        if let Some(p) = self.above_percent {
            bounds.push(format!("above {p}% of its starting stands"));
        }
        if let Some(p) = self.below_percent {
            bounds.push(format!("below {p}% of its starting stands"));
        }
        if let Some(n) = self.at_most_stands {
            bounds.push(format!("{} or fewer", plural(n, "stand")));
        }
        let mut parts =
            vec![if bounds.is_empty() { String::from("no bound of its own") } else { bounds.join(", or ") }];
        match &self.melee {
            Some(m) => parts.push(fmt_melee(m)),
            None if !self.removed => parts.push(String::from("no melee modifier")),
            None => {}
        }
        let flags = [
            (self.assault_needs_brigadier, "assaults only with the brigadier attached"),
            (self.tests_under_fire, "tests Discipline when fired on"),
            (self.removed, "removed from the table"),
        ];
        parts.extend(flags.iter().filter(|(on, _)| *on).map(|(_, text)| text.to_string()));
        parts
    }
}
